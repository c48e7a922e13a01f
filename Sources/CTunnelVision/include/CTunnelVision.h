#ifndef CTUNNELVISION_H
#define CTUNNELVISION_H

#include <stdint.h>
#include "CTVRing.h"
#include "CTVEventLoop.h"
#include "CTVHeap.h"
#include "CTVTouch.h"
#include "CTVSpawn.h"
#include "CTVPacketRing.h"

// Kernel constants that reach Swift as macros (which do not import) are re-exported here as
// functions, so there is exactly one place that spells them.

/// The TUNSETIFF ioctl request (linux/if_tun.h).
unsigned long ctv_tun_set_iff(void);
/// IFF_TUN: the device carries IP datagrams, not Ethernet frames.
int16_t ctv_iff_tun(void);
/// IFF_NO_PI: no 4-byte packet-information prefix before each datagram.
int16_t ctv_iff_no_pi(void);

/// Attaches `fd` (an open /dev/net/tun) to a layer-3 TUN interface without packet-information
/// headers, named `requested` (a printf-style pattern like "tv%d" lets the kernel number it).
/// On success writes the interface's name (at most 15 bytes and a NUL) into `actual` and returns
/// 0; otherwise returns the errno. The ioctl is variadic, which Swift cannot call.
int ctv_tun_attach(int fd, const char *requested, char actual[16]);

/// The same with IFF_VNET_HDR: every datagram read or written is preceded by a 10-byte
/// virtio_net_hdr, which carries the kernel's segmentation and checksum offloads.
int ctv_tun_attach_with_vnet_header(int fd, const char *requested, char actual[16]);

/// Asks the kernel to hand the device's reader TCP segments of up to 64 KiB over IPv4 and IPv6
/// whatever the MTU, with their checksums left partial (TUNSETOFFLOAD: TUN_F_CSUM, TUN_F_TSO4,
/// TUN_F_TSO6), and to take such segments when written. Only on a device attached with the vnet
/// header. Returns 0 or the errno.
int ctv_tun_set_segmentation_offloads(int fd);

/// Moves the calling thread into the network namespace `fd` refers to (setns with
/// CLONE_NEWNET, which glibc declares only under _GNU_SOURCE). Returns 0 or the errno.
int ctv_join_network_namespace(int fd);

/// A descriptor (O_CLOEXEC) for the network namespace the TUN device behind `fd` lives in now,
/// wherever it was moved (the TUNGETDEVNETNS ioctl, Linux 5.2). Returns it, or -errno.
int ctv_tun_device_namespace(int fd);

/// socket(domain, type | SOCK_CLOEXEC, protocol) made inside the network namespace `namespace_fd`
/// refers to, by a short-lived thread of its own that joins it — so no caller's thread ever
/// changes namespace. The socket keeps that namespace for its life. Returns it, or -errno.
int ctv_socket_in_network_namespace(int namespace_fd, int domain, int type, int protocol);

/// A non-blocking, close-on-exec rtnetlink socket made inside the network namespace of
/// `namespace_fd` and joined to the groups that tell its network changed: links, IPv4 and IPv6
/// addresses and routes (RTMGRP_*, linux/rtnetlink.h). The socket, or -errno.
int ctv_rtnetlink_listen(int namespace_fd);

/// accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC) (declared only under _GNU_SOURCE):
/// a connection that can never block the event loop nor leak into a child. -1 and errno on failure.
int ctv_accept_nonblocking(int fd);

/// The errno's symbolic name ("ECONNREFUSED"), or NULL for a number the C library does not know
/// (strerrorname_np, declared only under _GNU_SOURCE).
const char *ctv_errno_name(int code);

#endif
