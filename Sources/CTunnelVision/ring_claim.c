// The ring's one reader (SPSC): an open-file-description lock, which flock (the producer's
// initialisation lock on the same file) neither sees nor blocks, and which the kernel drops with
// the last descriptor of the open file — when the reader closes it or its process dies.
#define _GNU_SOURCE
#include "CTVRing.h"
#include <errno.h>
#include <fcntl.h>

int ctv_ring_claim_reader(int descriptor) {
    struct flock lock = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1 };
    while (fcntl(descriptor, F_OFD_SETLK, &lock) != 0) {
        if (errno != EINTR) return errno;
    }
    return 0;
}
