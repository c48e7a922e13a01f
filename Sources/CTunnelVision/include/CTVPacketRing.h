#ifndef CTV_PACKET_RING_H
#define CTV_PACKET_RING_H

#include <stddef.h>
#include <stdint.h>

/// A passive capture socket: AF_PACKET, SOCK_DGRAM (network-layer packets, no link header), every
/// protocol, with a TPACKET_V3 receive ring mapped into the process (packet(7)). The kernel fills
/// blocks of `block_size` bytes and hands one over when it is full or `retire_ms` passed; the
/// reader walks its packets and gives the block back.
typedef struct {
    int descriptor;
    void *map;
    size_t map_size;
    uint32_t block_size;
    uint32_t block_count;
} ctv_packet_ring;

/// One packet of a block, as the kernel described it.
typedef struct {
    const uint8_t *data;
    /// Bytes at `data` (the packet, cut to what fit its block).
    uint32_t captured;
    /// The packet's length on the wire.
    uint32_t length;
    /// Seconds and nanoseconds since 1970 when the kernel saw it.
    uint32_t seconds;
    uint32_t nanoseconds;
    /// The ethertype (host order): 0x0800 IPv4, 0x86DD IPv6.
    uint16_t protocol;
    /// PACKET_HOST, PACKET_OUTGOING, … (linux/if_packet.h).
    uint8_t packet_type;
    int interface_index;
} ctv_ring_packet;

/// Opens the socket and its ring, bound to `interface_index` (0: every interface). Returns 0, or
/// the errno of the call that failed; `failed_step` names it.
int ctv_packet_ring_open(int interface_index, uint32_t block_size, uint32_t block_count, uint32_t retire_ms,
                         ctv_packet_ring *ring, const char **failed_step);
void ctv_packet_ring_close(ctv_packet_ring *ring);

/// The block at `index` when the kernel handed it to the reader, else NULL.
void *ctv_packet_ring_ready_block(const ctv_packet_ring *ring, uint32_t index);
/// Packets in a ready block.
uint32_t ctv_packet_block_packets(const void *block);
/// The first packet of a ready block; `ctv_packet_next` the one after `packet`.
const void *ctv_packet_block_first(const void *block);
const void *ctv_packet_next(const void *packet);
void ctv_packet_describe(const void *packet, ctv_ring_packet *described);
/// Gives a block back to the kernel.
void ctv_packet_block_release(void *block);

/// What the kernel counted since the last ask (it resets them): packets it saw for the socket,
/// drops for lack of room in the ring, and times the queue froze. Returns 0 or errno.
int ctv_packet_ring_statistics(int descriptor, uint32_t *packets, uint32_t *drops, uint32_t *freezes);

uint8_t ctv_packet_outgoing(void);
uint16_t ctv_ethertype_ipv4(void);
uint16_t ctv_ethertype_ipv6(void);

#endif
