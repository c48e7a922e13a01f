#include "CTunnelVision.h"
#include <sys/ioctl.h>
#include <linux/if_tun.h>

unsigned long ctv_tun_set_iff(void) { return TUNSETIFF; }
int16_t ctv_iff_tun(void) { return IFF_TUN; }
int16_t ctv_iff_no_pi(void) { return IFF_NO_PI; }
