#include "CTunnelVision.h"
#include <sys/ioctl.h>
#include <linux/if_tun.h>
#include <errno.h>
#include <net/if.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

unsigned long ctv_tun_set_iff(void) { return TUNSETIFF; }
int16_t ctv_iff_tun(void) { return IFF_TUN; }
int16_t ctv_iff_no_pi(void) { return IFF_NO_PI; }

static int attach(int fd, const char *requested, char actual[16], short flags) {
    struct ifreq request;
    memset(&request, 0, sizeof request);
    request.ifr_flags = flags;
    strncpy(request.ifr_name, requested, IFNAMSIZ - 1);
    if (ioctl(fd, TUNSETIFF, &request) != 0) return errno;
    memcpy(actual, request.ifr_name, IFNAMSIZ);
    actual[IFNAMSIZ - 1] = 0;
    return 0;
}

int ctv_tun_attach(int fd, const char *requested, char actual[16]) {
    return attach(fd, requested, actual, IFF_TUN | IFF_NO_PI);
}

int ctv_tun_attach_with_vnet_header(int fd, const char *requested, char actual[16]) {
    return attach(fd, requested, actual, IFF_TUN | IFF_NO_PI | IFF_VNET_HDR);
}

int ctv_tun_set_segmentation_offloads(int fd) {
    unsigned int offloads = TUN_F_CSUM | TUN_F_TSO4 | TUN_F_TSO6;
    return ioctl(fd, TUNSETOFFLOAD, offloads) == 0 ? 0 : errno;
}

int ctv_tun_device_namespace(int fd) {
    int namespace_fd = ioctl(fd, TUNGETDEVNETNS);
    if (namespace_fd < 0) return -errno;
    // The kernel's descriptor has no close-on-exec: set it before anything can spawn.
    if (fcntl(namespace_fd, F_SETFD, FD_CLOEXEC) != 0) {
        int error = errno;
        close(namespace_fd);
        return -error;
    }
    return namespace_fd;
}
