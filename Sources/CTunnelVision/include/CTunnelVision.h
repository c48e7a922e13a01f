#ifndef CTUNNELVISION_H
#define CTUNNELVISION_H

#include <stdint.h>
#include "CTVRing.h"

// Kernel constants that reach Swift as macros (which do not import) are re-exported here as
// functions, so there is exactly one place that spells them.

/// The TUNSETIFF ioctl request (linux/if_tun.h).
unsigned long ctv_tun_set_iff(void);
/// IFF_TUN: the device carries IP datagrams, not Ethernet frames.
int16_t ctv_iff_tun(void);
/// IFF_NO_PI: no 4-byte packet-information prefix before each datagram.
int16_t ctv_iff_no_pi(void);

#endif
