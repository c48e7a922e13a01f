#define _GNU_SOURCE
#include "CTunnelVision.h"
#include <string.h>

const char *ctv_errno_name(int code) {
    return strerrorname_np(code);
}
