#define _GNU_SOURCE
#include "CTunnelVision.h"
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <sys/socket.h>
#include <linux/rtnetlink.h>
#include <string.h>
#include <unistd.h>

int ctv_join_network_namespace(int fd) {
    return setns(fd, CLONE_NEWNET) == 0 ? 0 : errno;
}

struct socket_request {
    int namespace_fd, domain, type, protocol;
    int result;   // the socket, or -errno
};

static void *make_socket_inside(void *argument) {
    struct socket_request *request = argument;
    // This thread alone joins; it ends right after, so nothing else ever runs in the namespace.
    if (setns(request->namespace_fd, CLONE_NEWNET) != 0) {
        request->result = -errno;
        return 0;
    }
    int made = socket(request->domain, request->type | SOCK_CLOEXEC, request->protocol);
    request->result = made >= 0 ? made : -errno;
    return 0;
}

int ctv_socket_in_network_namespace(int namespace_fd, int domain, int type, int protocol) {
    struct socket_request request = { namespace_fd, domain, type, protocol, -EINVAL };
    pthread_t thread;
    int failure = pthread_create(&thread, 0, make_socket_inside, &request);
    if (failure != 0) return -failure;
    pthread_join(thread, 0);
    return request.result;
}

int ctv_rtnetlink_listen(int namespace_fd) {
    int fd = ctv_socket_in_network_namespace(namespace_fd, AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_ROUTE);
    if (fd < 0) return fd;
    struct sockaddr_nl address;
    memset(&address, 0, sizeof address);
    address.nl_family = AF_NETLINK;
    address.nl_groups = RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_IFADDR | RTMGRP_IPV6_ROUTE;
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        int error = errno;
        close(fd);
        return -error;
    }
    return fd;
}
