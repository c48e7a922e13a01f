#!/usr/bin/env python3
"""The man page and the bash completion, made from the program's own help — one truth: what
`tunnelvision --help` and `tunnelvision help COMMAND` say is what the page says and what the
completion offers.

    from_help.py man BINARY OUT.1          tunnelvision(1): the overview, then each command's help
    from_help.py completion BINARY OUT     a bash completion: the commands, then each one's options
"""
import re
import subprocess
import sys


def helped(binary, *topic):
    result = subprocess.run([binary, "help", *topic], capture_output=True, text=True, check=True)
    return result.stdout.rstrip("\n")


def commands(binary):
    """Each command the overview names, in its order, once."""
    seen = []
    for match in re.finditer(r"^\s+tunnelvision ([a-z]+)", helped(binary), re.M):
        if match.group(1) not in seen and match.group(1) != "help":
            seen.append(match.group(1))
    return seen


def roff(text):
    """Text as it stands, for a no-fill block: backslashes escaped, no line read as a request."""
    lines = []
    for line in text.replace("\\", "\\e").split("\n"):
        lines.append("\\&" + line if line.startswith((".", "'")) else line)
    return "\n".join(lines)


def man(binary, out):
    overview = helped(binary)
    version = subprocess.run([binary, "version"], capture_output=True, text=True, check=True).stdout.split()[-1]
    title, _, body = overview.partition("\n")
    summary = title.split("—", 1)[-1].strip()
    page = [f'.TH TUNNELVISION 1 "" "tunnelvision {version}" "User Commands"',
            ".SH NAME", f"tunnelvision \\- {roff(summary)}",
            ".SH SYNOPSIS", ".nf", roff(body.strip("\n")), ".fi"]
    page += [".SH COMMANDS"]
    for command in commands(binary):
        page += [".SS " + command, ".nf", roff(helped(binary, command)), ".fi"]
    page += [".SH FILES", ".TP", "/var/lib/tunnelvision",
             "root's data directory: the history, captures, settings and the service's state (0700).",
             ".SH SEE ALSO", "tshark(1), ip(8), systemd.service(5)"]
    with open(out, "w") as file:
        file.write("\n".join(page) + "\n")


def completion(binary, out):
    names = commands(binary)
    cases = []
    for command in names:
        options = sorted(set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", helped(binary, command))))
        cases.append(f'        {command}) options="{" ".join(options)}" ;;')
    script = f"""# bash completion for tunnelvision, made from its help (packaging/from_help.py)
_tunnelvision() {{
    local current="${{COMP_WORDS[COMP_CWORD]}}" options=""
    if [[ $COMP_CWORD -eq 1 ]]; then
        COMPREPLY=($(compgen -W "{" ".join(names)} help" -- "$current"))
        return
    fi
    case "${{COMP_WORDS[1]}}" in
{chr(10).join(cases)}
    esac
    if [[ "$current" == -* ]]; then
        COMPREPLY=($(compgen -W "$options" -- "$current"))
    else
        COMPREPLY=($(compgen -f -- "$current"))
    fi
}}
complete -F _tunnelvision tunnelvision
"""
    with open(out, "w") as file:
        file.write(script)


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("man", "completion"):
        sys.exit(__doc__)
    (man if sys.argv[1] == "man" else completion)(sys.argv[2], sys.argv[3])
