#ifndef CTV_SPAWN_H
#define CTV_SPAWN_H

#include <stdint.h>

// Starting the monitored command (CMD) so that it behaves as it would without us and nothing it
// starts outlives the tunnel. The decisions live in Swift (Sources/Linux/Run); this is only what
// must run after fork, where Swift cannot: async-signal-safe system calls, no allocation.
//
//   tunnelvision ──clone(CLONE_NEWPID)──▶ init (PID 1 of a new PID namespace, root)
//                                           │ setns(net), unshare(mount), ip-netns-exec's mounts,
//                                           │ a fresh /proc; all signals blocked, read by signalfd
//                                           └──fork──▶ CMD: empty mask, default dispositions,
//                                                       groups, gid, uid, descriptor limit, execve
//
// When the init exits the kernel kills everything left in its PID namespace. It exits when CMD
// ends (after reporting CMD's wait status), when tunnelvision's end of the control pipe closes
// (tunnelvision died: the lifeline), or when tunnelvision's spawning thread dies (PDEATHSIG).

/// A bind mount the init makes in CMD's mount namespace (`ip netns exec`'s /etc/netns/NAME/*).
typedef struct {
    const char *source;
    const char *target;
    /// Non-NULL: `target` is relative to this directory and is reached without following a
    /// symbolic link (a place in a user's home, which that user could turn into a link).
    const char *beneath;
} ctv_bind_mount;

typedef struct {
    /// The executable, already resolved; argv and envp are NULL-terminated.
    const char *path;
    char *const *argv;
    char *const *envp;
    /// An open /run/netns/NAME, or -1 to stay in the caller's network namespace.
    int network_namespace_fd;
    /// Non-NULL: remount /sys with this source, as `ip netns exec` does, so it shows the
    /// namespace's devices.
    const char *sysfs_source;
    const ctv_bind_mount *binds;
    int bind_count;
    /// Non-zero: CMD drops to uid/gid with these supplementary groups.
    int change_user;
    uint32_t uid;
    uint32_t gid;
    const uint32_t *groups;
    int group_count;
    /// Non-zero: CMD gets this RLIMIT_NOFILE back.
    int restore_open_file_limit;
    uint64_t open_file_soft;
    uint64_t open_file_hard;
    /// The signals the init watches for on behalf of CMD (the relayable ones).
    const int *relayed_signals;
    int relayed_count;
    /// Signals CMD starts with ignored, bit N-1 for signal N: the ones tunnelvision itself was
    /// started with ignored (`nohup`), as a shell passes them on; every other one is at default.
    uint64_t ignored_signals;
} ctv_spawn_request;

typedef struct {
    /// The init's PID in our namespace.
    int init_pid;
    /// Write a relay request here: an int32 signal number N, which the init forwards to CMD
    /// unless CMD already had it from the process group, or -N, which it always forwards.
    /// Closing it ends the init, and with it everything in its PID namespace.
    int control_fd;
    /// Read ctv_report records here until end of file.
    int report_fd;
} ctv_spawned;

/// What the init and CMD's child tell tunnelvision, one fixed-size record each.
typedef struct {
    int32_t kind;
    int32_t step;
    int32_t value;
} ctv_report;

/// `ctv_report.kind`.
enum {
    /// The init could not prepare CMD's world: `step` says where, `value` is the errno.
    CTV_REPORT_SETUP_FAILED = 1,
    /// CMD's child could not become CMD: `step` says where, `value` is the errno.
    CTV_REPORT_START_FAILED = 2,
    /// CMD ended: `value` is its raw wait status.
    CTV_REPORT_ENDED = 3,
};

/// `ctv_report.step`.
enum {
    CTV_STEP_NETWORK_NAMESPACE = 1,
    CTV_STEP_MOUNT_NAMESPACE = 2,
    CTV_STEP_MOUNT_PROPAGATION = 3,
    CTV_STEP_SYSFS = 4,
    CTV_STEP_BIND_MOUNT = 5,
    CTV_STEP_PROC = 6,
    CTV_STEP_SIGNALFD = 7,
    CTV_STEP_FORK = 8,
    CTV_STEP_SIGNAL_MASK = 9,
    CTV_STEP_GROUPS = 10,
    CTV_STEP_GID = 11,
    CTV_STEP_UID = 12,
    CTV_STEP_OPEN_FILE_LIMIT = 13,
    CTV_STEP_EXEC = 14,
};

/// Starts the init, which starts CMD. Call it from a thread that lives until CMD has ended: the
/// init dies with it (PR_SET_PDEATHSIG). Returns 0 and fills `spawned`, or the errno.
int ctv_spawn(const ctv_spawn_request *request, ctv_spawned *spawned);

/// The signals this process has ignored now, bit N-1 for signal N (1…64), read with the raw
/// call; the C library's own (32 up to SIGRTMIN) are never reported.
uint64_t ctv_ignored_signals(void);

/// posix_spawn_file_actions_addclosefrom_np, which Swift's Glibc module does not import: the
/// child closes every descriptor from `lowest` up before it executes.
#include <spawn.h>
int ctv_spawn_actions_close_from(posix_spawn_file_actions_t *actions, int lowest);

/// A signal tunnelvision received, as its handler saw it.
typedef struct {
    int32_t signal;
    int32_t code;
    int32_t sender;
} ctv_signal_record;

/// Installs an SA_SIGINFO handler for each of `signals` that writes a ctv_signal_record to a
/// non-blocking pipe, and returns the pipe's read end (or -errno). Once per process: later calls
/// return the same pipe.
int ctv_signal_records_install(const int *signals, int count);

/// pipe2(fds, O_CLOEXEC) (declared only under _GNU_SOURCE): a pipe no other child inherits.
/// 0, or -1 and errno.
int ctv_pipe_cloexec(int fds[2]);

#endif
