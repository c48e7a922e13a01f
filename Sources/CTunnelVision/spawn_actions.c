#define _GNU_SOURCE
#include <spawn.h>
#include "CTVSpawn.h"

int ctv_spawn_actions_close_from(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}
