#define _GNU_SOURCE
#include "CTunnelVision.h"
#include <sys/socket.h>

int ctv_accept_nonblocking(int fd) {
    return accept4(fd, 0, 0, SOCK_NONBLOCK | SOCK_CLOEXEC);
}
