// Settings → Monitoring: what the Dashboard's Start monitors — this machine (the default, so Start
// works at once), a network namespace, a process's namespace (a container's) or an interface,
// watched passively. Saved as the `monitoring-target` setting (`host`, `netns:NAME`, `pid:PID`,
// `interface:IF`), which the server checks; a running service keeps the target it started with.

import { post } from "./api.js";
import { h, announce } from "./dom.js";

// The setting's kind → [the words shown, the label of the name it needs (none for the host)].
const kinds = [
  ["host", "This machine", null],
  ["netns", "A network namespace", "Namespace name (ip netns list)"],
  ["pid", "A process's network namespace (a container's)", "Process ID"],
  ["interface", "An interface, watched passively", "Interface name (any for every one)"],
];

/** The card; `reload(message)` redraws the page with a message once something changed. */
export function monitoringCard(settings, reload) {
  const target = settings.monitoringTarget ?? { kind: "host" };
  const kind = h("select", { id: "setting-monitoring-kind", name: "monitoring-kind" },
    kinds.map(([value, words]) => h("option", { value, selected: value === target.kind }, words)));
  const name = h("input", { id: "setting-monitoring-name", name: "monitoring-name", type: "text", autocomplete: "off",
    spellcheck: "false", value: target.name ?? (target.pid != null ? String(target.pid) : "") });
  const nameLabel = h("label", { for: "setting-monitoring-name" }, "");
  const nameField = h("div", { class: "field" }, nameLabel, name);
  function sync() {
    const needs = kinds.find(([value]) => value === kind.value)?.[2];
    nameField.hidden = !needs;
    nameLabel.textContent = needs ?? "";
  }
  kind.addEventListener("change", sync);
  sync();

  async function save(event) {
    event.preventDefault();
    const value = kind.value === "host" ? "host" : `${kind.value}:${name.value.trim()}`;
    try {
      const result = await post("/api/settings", { setting: "monitoring-target", value });
      announce("What Start monitors: saved.");
      reload(`Start on the Dashboard now monitors ${result.value ?? value}; a service already running keeps its target until it stops.`);
    } catch (error) {
      reload(`What Start monitors was not changed: ${error.message}`);
    }
  }

  return h("section", { class: "card", "aria-labelledby": "monitoring-title" },
    h("h2", { id: "monitoring-title" }, "Monitoring"),
    h("p", {}, "What the Dashboard's Start monitors. A routed target (this machine, a namespace, a container) sends its "
      + "traffic through the tunnel; an interface is only listened to, and nothing on it can be decrypted."),
    h("form", { on: { submit: save } },
      h("div", { class: "field" }, h("label", { for: "setting-monitoring-kind" }, "Start monitors"), kind),
      nameField,
      h("div", { class: "actions" }, h("button", { type: "submit" }, "Save what Start monitors"))));
}
