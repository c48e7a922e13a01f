#include "CTVPacketRing.h"
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

// The ring's frames are only a unit of the request: TPACKET_V3 packs packets of any size up to a
// block into its blocks.
#define CTV_RING_FRAME_SIZE 2048

int ctv_packet_ring_open(int interface_index, uint32_t block_size, uint32_t block_count, uint32_t retire_ms,
                         ctv_packet_ring *ring, const char **failed_step) {
    memset(ring, 0, sizeof *ring);
    ring->descriptor = -1;
    int fd = socket(AF_PACKET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, htons(ETH_P_ALL));
    if (fd < 0) { *failed_step = "socket(AF_PACKET)"; return errno; }
    int version = TPACKET_V3;
    if (setsockopt(fd, SOL_PACKET, PACKET_VERSION, &version, sizeof version) != 0) {
        *failed_step = "PACKET_VERSION";
        goto fail;
    }
    struct tpacket_req3 request;
    memset(&request, 0, sizeof request);
    request.tp_block_size = block_size;
    request.tp_block_nr = block_count;
    request.tp_frame_size = CTV_RING_FRAME_SIZE;
    request.tp_frame_nr = (block_size / CTV_RING_FRAME_SIZE) * block_count;
    request.tp_retire_blk_tov = retire_ms;
    if (setsockopt(fd, SOL_PACKET, PACKET_RX_RING, &request, sizeof request) != 0) {
        *failed_step = "PACKET_RX_RING";
        goto fail;
    }
    size_t size = (size_t)block_size * block_count;
    // The ring's pages are the kernel's (never swapped): mapping them costs no locked memory.
    void *map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) { *failed_step = "mmap"; goto fail; }
    struct sockaddr_ll address;
    memset(&address, 0, sizeof address);
    address.sll_family = AF_PACKET;
    address.sll_protocol = htons(ETH_P_ALL);
    address.sll_ifindex = interface_index;
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        int error = errno;
        munmap(map, size);
        close(fd);
        *failed_step = "bind";
        return error;
    }
    ring->descriptor = fd;
    ring->map = map;
    ring->map_size = size;
    ring->block_size = block_size;
    ring->block_count = block_count;
    return 0;
fail:;
    int error = errno;
    close(fd);
    return error;
}

void ctv_packet_ring_close(ctv_packet_ring *ring) {
    if (ring->map) munmap(ring->map, ring->map_size);
    if (ring->descriptor >= 0) close(ring->descriptor);
    ring->map = NULL;
    ring->descriptor = -1;
}

void *ctv_packet_ring_ready_block(const ctv_packet_ring *ring, uint32_t index) {
    struct tpacket_block_desc *block = (struct tpacket_block_desc *)((uint8_t *)ring->map + (size_t)index * ring->block_size);
    // The kernel's writes to the block are seen once its status says it is the reader's.
    uint32_t status = __atomic_load_n(&block->hdr.bh1.block_status, __ATOMIC_ACQUIRE);
    return (status & TP_STATUS_USER) ? block : NULL;
}

uint32_t ctv_packet_block_packets(const void *block) {
    return ((const struct tpacket_block_desc *)block)->hdr.bh1.num_pkts;
}

const void *ctv_packet_block_first(const void *block) {
    const struct tpacket_block_desc *desc = block;
    return (const uint8_t *)block + desc->hdr.bh1.offset_to_first_pkt;
}

const void *ctv_packet_next(const void *packet) {
    return (const uint8_t *)packet + ((const struct tpacket3_hdr *)packet)->tp_next_offset;
}

void ctv_packet_describe(const void *packet, ctv_ring_packet *described) {
    const struct tpacket3_hdr *header = packet;
    const struct sockaddr_ll *link = (const struct sockaddr_ll *)((const uint8_t *)packet
                                                                 + TPACKET_ALIGN(sizeof(struct tpacket3_hdr)));
    described->data = (const uint8_t *)packet + header->tp_net;
    described->captured = header->tp_snaplen;
    described->length = header->tp_len;
    described->seconds = header->tp_sec;
    described->nanoseconds = header->tp_nsec;
    described->protocol = ntohs(link->sll_protocol);
    described->packet_type = link->sll_pkttype;
    described->interface_index = link->sll_ifindex;
}

void ctv_packet_block_release(void *block) {
    struct tpacket_block_desc *desc = block;
    __atomic_store_n(&desc->hdr.bh1.block_status, TP_STATUS_KERNEL, __ATOMIC_RELEASE);
}

int ctv_packet_ring_statistics(int descriptor, uint32_t *packets, uint32_t *drops, uint32_t *freezes) {
    struct tpacket_stats_v3 stats;
    socklen_t length = sizeof stats;
    memset(&stats, 0, sizeof stats);
    if (getsockopt(descriptor, SOL_PACKET, PACKET_STATISTICS, &stats, &length) != 0) return errno;
    *packets = stats.tp_packets;
    *drops = stats.tp_drops;
    *freezes = stats.tp_freeze_q_cnt;
    return 0;
}

uint8_t ctv_packet_outgoing(void) { return PACKET_OUTGOING; }
uint16_t ctv_ethertype_ipv4(void) { return ETH_P_IP; }
uint16_t ctv_ethertype_ipv6(void) { return ETH_P_IPV6; }
