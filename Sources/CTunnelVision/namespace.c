#define _GNU_SOURCE
#include "CTunnelVision.h"
#include <errno.h>
#include <sched.h>

int ctv_join_network_namespace(int fd) {
    return setns(fd, CLONE_NEWNET) == 0 ? 0 : errno;
}

