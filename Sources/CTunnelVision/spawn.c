#define _GNU_SOURCE
#include "CTunnelVision.h"
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

// Everything after a clone below runs in a copy of a multi-threaded process: only raw system
// calls, no malloc, no stdio, and no glibc fork() (its atfork locks may be held by threads that
// do not exist in the copy) — hence the raw clone syscalls.

static pid_t raw_fork(unsigned long flags) {
    return (pid_t)syscall(SYS_clone, flags | SIGCHLD, 0, 0, 0, 0);
}

static void report(int fd, int32_t kind, int32_t step, int32_t value) {
    ctv_report record = { kind, step, value };
    ssize_t written;
    do { written = write(fd, &record, sizeof record); } while (written < 0 && errno == EINTR);
}

static void fail(int fd, int32_t kind, int32_t step) {
    report(fd, kind, step, errno);
    _exit(127);
}

/// Closes every descriptor above the standard streams but `keep` (any order).
static void close_all_except(int *keep, int count) {
    for (int i = 1; i < count; i++) {
        for (int j = i; j > 0 && keep[j - 1] > keep[j]; j--) {
            int swap = keep[j]; keep[j] = keep[j - 1]; keep[j - 1] = swap;
        }
    }
    unsigned int low = 3;
    for (int i = 0; i < count; i++) {
        if (keep[i] < (int)low) continue;
        if ((unsigned int)keep[i] > low) syscall(SYS_close_range, low, (unsigned int)keep[i] - 1, 0);
        low = (unsigned int)keep[i] + 1;
    }
    syscall(SYS_close_range, low, ~0U, 0);
}

static void become_command(const ctv_spawn_request *request, int report_fd) {
    // Dispositions first, then the mask: a signal pending now must meet the default action (or
    // the ignoring tunnelvision inherited), not a handler of tunnelvision's.
    // The raw call, since glibc's sigaction refuses its own signals (32, 33), which a parent may
    // have left ignored. The kernel's layout: handler, flags, restorer, mask; all zero = SIG_DFL.
    struct { void *handler; unsigned long flags; void *restorer; uint64_t mask; } standard;
    memset(&standard, 0, sizeof standard);
    struct { void *handler; unsigned long flags; void *restorer; uint64_t mask; } ignored;
    memset(&ignored, 0, sizeof ignored);
    ignored.handler = (void *)SIG_IGN;
    for (int signal = 1; signal < NSIG; signal++) {
        if (signal == SIGKILL || signal == SIGSTOP) continue;
        int inherited = signal <= 64 && (request->ignored_signals >> (signal - 1)) & 1;
        syscall(SYS_rt_sigaction, signal, inherited ? (void *)&ignored : (void *)&standard, 0, sizeof standard.mask);
    }
    sigset_t none;
    sigemptyset(&none);
    if (sigprocmask(SIG_SETMASK, &none, 0) != 0) fail(report_fd, CTV_REPORT_START_FAILED, CTV_STEP_SIGNAL_MASK);
    if (request->change_user) {
        // Groups, then gid, then uid: each needs the privilege the next one gives up.
        if (setgroups((size_t)request->group_count, (const gid_t *)request->groups) != 0)
            fail(report_fd, CTV_REPORT_START_FAILED, CTV_STEP_GROUPS);
        if (setresgid(request->gid, request->gid, request->gid) != 0) fail(report_fd, CTV_REPORT_START_FAILED, CTV_STEP_GID);
        if (setresuid(request->uid, request->uid, request->uid) != 0) fail(report_fd, CTV_REPORT_START_FAILED, CTV_STEP_UID);
    }
    if (request->restore_open_file_limit) {
        struct rlimit limit = { (rlim_t)request->open_file_soft, (rlim_t)request->open_file_hard };
        if (setrlimit(RLIMIT_NOFILE, &limit) != 0) fail(report_fd, CTV_REPORT_START_FAILED, CTV_STEP_OPEN_FILE_LIMIT);
    }
    // Standard streams stay; the report pipe stays until execve succeeds.
    syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC);
    execve(request->path, request->argv, request->envp);
    fail(report_fd, CTV_REPORT_START_FAILED, CTV_STEP_EXEC);
}

/// Opens `relative` below the directory `base` as an O_PATH descriptor, one component at a time,
/// following no symbolic link after `base`; -1 with errno set otherwise.
static int open_beneath(const char *base, const char *relative) {
    int fd = open(base, O_PATH | O_DIRECTORY | O_CLOEXEC);
    char component[256];
    const char *cursor = relative;
    while (fd >= 0 && *cursor) {
        if (*cursor == '/') { cursor++; continue; }
        size_t length = 0;
        while (cursor[length] && cursor[length] != '/') length++;
        if (length >= sizeof component || (length <= 2 && cursor[0] == '.' && cursor[length - 1] == '.')) {
            close(fd);
            errno = EINVAL;
            return -1;
        }
        memcpy(component, cursor, length);
        component[length] = 0;
        int next = openat(fd, component, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        int saved = errno;
        close(fd);
        errno = saved;
        fd = next;
        cursor += length;
    }
    return fd;
}

/// Bind-mounts `source` over what `fd` is, through /proc/self/fd/N (mount(2) takes a path, and
/// that one names exactly the opened directory, whatever its path now leads to).
static int mount_over_descriptor(const char *source, int fd) {
    char target[32] = "/proc/self/fd/";
    char digits[12];
    int count = 0;
    unsigned int value = (unsigned int)fd;
    do { digits[count++] = (char)('0' + value % 10); value /= 10; } while (value && count < (int)sizeof digits);
    size_t at = strlen(target);
    while (count > 0) target[at++] = digits[--count];
    target[at] = 0;
    return mount(source, target, "none", MS_BIND, 0);
}

/// `ip netns exec`'s work (iproute2 netns_switch): the namespace, a private mount namespace,
/// /sys of the namespace, /etc/netns/NAME/* over /etc/*; then /proc of the new PID namespace.
static void prepare(const ctv_spawn_request *request, int report_fd) {
    if (request->network_namespace_fd >= 0) {
        if (setns(request->network_namespace_fd, CLONE_NEWNET) != 0) fail(report_fd, CTV_REPORT_SETUP_FAILED, CTV_STEP_NETWORK_NAMESPACE);
        close(request->network_namespace_fd);
    }
    if (unshare(CLONE_NEWNS) != 0) fail(report_fd, CTV_REPORT_SETUP_FAILED, CTV_STEP_MOUNT_NAMESPACE);
    if (mount("", "/", "none", MS_SLAVE | MS_REC, 0) != 0) fail(report_fd, CTV_REPORT_SETUP_FAILED, CTV_STEP_MOUNT_PROPAGATION);
    if (request->sysfs_source) {
        unsigned long flags = 0;
        umount2("/sys", MNT_DETACH);   // fails, harmlessly, when no sysfs was mounted
        struct statvfs sys;
        if (statvfs("/sys", &sys) == 0 && (sys.f_flag & ST_RDONLY)) flags = MS_RDONLY;
        if (mount(request->sysfs_source, "/sys", "sysfs", flags, 0) != 0) fail(report_fd, CTV_REPORT_SETUP_FAILED, CTV_STEP_SYSFS);
    }
    for (int i = 0; i < request->bind_count; i++) {
        const ctv_bind_mount *bind = &request->binds[i];
        if (bind->beneath) {
            // Opened inside this mount namespace: a descriptor from before the unshare would
            // name a mount of the host's, which mount(2) refuses.
            int fd = open_beneath(bind->beneath, bind->target);
            if (fd < 0 || mount_over_descriptor(bind->source, fd) != 0) fail(report_fd, CTV_REPORT_SETUP_FAILED, CTV_STEP_BIND_MOUNT);
            close(fd);
        } else if (mount(bind->source, bind->target, "none", MS_BIND, 0) != 0) {
            fail(report_fd, CTV_REPORT_SETUP_FAILED, CTV_STEP_BIND_MOUNT);
        }
    }
    if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, 0) != 0)
        fail(report_fd, CTV_REPORT_SETUP_FAILED, CTV_STEP_PROC);
}

/// Reaps every child; returns 1 (and reports) when CMD was among them.
static int reap(pid_t command, int report_fd) {
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        if (pid == command) {
            report(report_fd, CTV_REPORT_ENDED, 0, status);
            return 1;
        }
    }
    return 0;
}

/// Reads what is queued on the signalfd: reaps on SIGCHLD and counts the signals a process sent
/// to our whole process group (CMD got those from the kernel too). Mirrors `GroupSignalLedger`
/// in Swift (Sources/Linux/Run/GroupSignalLedger.swift): a record counts when its code is one a
/// process sends (si_code <= 0).
static int drain(int signals, pid_t command, int report_fd, unsigned int *seen) {
    struct signalfd_siginfo info;
    while (read(signals, &info, sizeof info) == (ssize_t)sizeof info) {
        if (info.ssi_signo == SIGCHLD) {
            if (reap(command, report_fd)) return 1;
        } else if (info.ssi_code <= 0 && info.ssi_signo < NSIG) {
            seen[info.ssi_signo] += 1;
        }
    }
    return 0;
}

static void init_main(const ctv_spawn_request *request, int control_fd, int report_fd) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    int keep[] = { control_fd, report_fd, request->network_namespace_fd };
    close_all_except(keep, 3);
    prepare(request, report_fd);

    sigset_t watched;
    sigemptyset(&watched);
    sigaddset(&watched, SIGCHLD);
    for (int i = 0; i < request->relayed_count; i++) sigaddset(&watched, request->relayed_signals[i]);
    int signals = signalfd(-1, &watched, SFD_NONBLOCK | SFD_CLOEXEC);
    if (signals < 0) fail(report_fd, CTV_REPORT_SETUP_FAILED, CTV_STEP_SIGNALFD);
    // What came before CMD existed never reached it: not counted.
    struct signalfd_siginfo early;
    while (read(signals, &early, sizeof early) == (ssize_t)sizeof early) {}

    pid_t command = raw_fork(0);
    if (command < 0) fail(report_fd, CTV_REPORT_SETUP_FAILED, CTV_STEP_FORK);
    if (command == 0) {
        close(signals);
        close(control_fd);
        become_command(request, report_fd);
    }

    unsigned int seen[NSIG];
    memset(seen, 0, sizeof seen);
    for (;;) {
        struct pollfd watch[2] = { { signals, POLLIN, 0 }, { control_fd, POLLIN, 0 } };
        if (poll(watch, 2, -1) < 0) {
            if (errno == EINTR) continue;
            _exit(1);
        }
        if (drain(signals, command, report_fd, seen)) _exit(0);
        if (watch[1].revents) {
            int32_t relayed;
            ssize_t got = read(control_fd, &relayed, sizeof relayed);
            if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN)) _exit(1);   // the lifeline: tunnelvision is gone
            if (got != (ssize_t)sizeof relayed || relayed == 0 || relayed >= NSIG || relayed <= -NSIG) continue;
            if (drain(signals, command, report_fd, seen)) _exit(0);
            if (relayed < 0) kill(command, -relayed);          // run's own request (terminate): no ledger
            else if (seen[relayed] > 0) seen[relayed] -= 1;    // CMD already had it from the group
            else kill(command, relayed);
        }
    }
}

int ctv_spawn(const ctv_spawn_request *request, ctv_spawned *spawned) {
    int control[2], reports[2];
    if (pipe2(control, O_CLOEXEC) != 0) return errno;
    if (pipe2(reports, O_CLOEXEC) != 0) {
        int error = errno;
        close(control[0]); close(control[1]);
        return error;
    }
    // Blocked from before the clone, so no handler of ours ever runs in the init.
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pid_t init = raw_fork(CLONE_NEWPID);
    if (init == 0) {
        close(control[1]);
        close(reports[0]);
        init_main(request, control[0], reports[1]);
    }
    int error = errno;
    pthread_sigmask(SIG_SETMASK, &previous, 0);
    close(control[0]);
    close(reports[1]);
    if (init < 0) {
        close(control[1]); close(reports[0]);
        return error;
    }
    spawned->init_pid = init;
    spawned->control_fd = control[1];
    spawned->report_fd = reports[0];
    return 0;
}

static int signal_records_write = -1;
static int signal_records_read = -1;

static void record_signal(int signal, siginfo_t *info, void *context) {
    (void)context;
    int saved = errno;
    ctv_signal_record record = { signal, info->si_code, info->si_pid };
    ssize_t ignored = write(signal_records_write, &record, sizeof record);   // full: the signal is dropped
    (void)ignored;
    errno = saved;
}

int ctv_signal_records_install(const int *signals, int count) {
    if (signal_records_read >= 0) return signal_records_read;
    int records[2];
    if (pipe2(records, O_CLOEXEC | O_NONBLOCK) != 0) return -errno;
    signal_records_write = records[1];
    signal_records_read = records[0];
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = record_signal;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    for (int i = 0; i < count; i++) {
        if (sigaction(signals[i], &action, 0) != 0) return -errno;
    }
    return signal_records_read;
}

int ctv_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

uint64_t ctv_ignored_signals(void) {
    struct { void *handler; unsigned long flags; void *restorer; uint64_t mask; } action;
    uint64_t ignored = 0;
    for (int signal = 1; signal <= 64 && signal < NSIG; signal++) {
        // 32 up to SIGRTMIN are the C library's own (thread cancellation, set*id): how the
        // program that started us left them says nothing a person chose, so CMD gets the default.
        if (signal >= 32 && signal < SIGRTMIN) continue;
        memset(&action, 0, sizeof action);
        if (syscall(SYS_rt_sigaction, signal, 0, &action, sizeof action.mask) == 0 && action.handler == (void *)SIG_IGN)
            ignored |= (uint64_t)1 << (signal - 1);
    }
    return ignored;
}
