/* PCI configuration space (PCI Local Bus 3.0, PCI Express Base 6.0): the header, the capability
 * lists (with loop detection) and the capabilities fwlens reasons about: PCI Express (port type,
 * link), ACS (capability and control bits), ARI, SR-IOV, Resizable BAR.
 *
 * Input is the bytes of /sys/bus/pci/devices/X/config: 4 KiB when read as root, 256 or 64 bytes
 * otherwise; what is missing is reported as unknown, never guessed. */
#ifndef FW_PCI_CONFIG_H
#define FW_PCI_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parsers/layout.h"

enum {
	PCI_VENDOR_ID,
	PCI_DEVICE_ID,
	PCI_COMMAND,
	PCI_STATUS,
	PCI_REVISION,
	PCI_CLASS_CODE, /* 24-bit: base class, subclass, prog-if */
	PCI_HEADER_TYPE,
	PCI_CAP_POINTER,
	PCI_PRIMARY_BUS,   /* type 1 */
	PCI_SECONDARY_BUS, /* type 1 */
	PCI_SUBORDINATE_BUS, /* type 1 */
	PCI_HDR__COUNT
};
extern const struct fw_layout fw_pci_header_layout; /* 64 bytes */

/* ACS capability/control bits (same positions in both registers). */
#define FW_PCI_ACS_SV 0x0001 /* source validation */
#define FW_PCI_ACS_TB 0x0002 /* translation blocking */
#define FW_PCI_ACS_RR 0x0004 /* P2P request redirect */
#define FW_PCI_ACS_CR 0x0008 /* P2P completion redirect */
#define FW_PCI_ACS_UF 0x0010 /* upstream forwarding */
#define FW_PCI_ACS_EC 0x0020 /* P2P egress control */
#define FW_PCI_ACS_DT 0x0040 /* direct translated P2P */
/* "SrcValid+ TransBlk- ReqRedir+ ..." in lspci's spelling */
char *fw_pci_acs_str(uint16_t bits, uint16_t cap, char *buf, size_t len);

enum fw_pcie_port_type {
	FW_PCIE_ENDPOINT = 0x0,
	FW_PCIE_LEGACY_ENDPOINT = 0x1,
	FW_PCIE_ROOT_PORT = 0x4,
	FW_PCIE_UPSTREAM_PORT = 0x5,
	FW_PCIE_DOWNSTREAM_PORT = 0x6,
	FW_PCIE_PCIE_TO_PCI_BRIDGE = 0x7,
	FW_PCIE_PCI_TO_PCIE_BRIDGE = 0x8,
	FW_PCIE_RC_INTEGRATED_ENDPOINT = 0x9,
	FW_PCIE_RC_EVENT_COLLECTOR = 0xA,
};
const char *fw_pcie_port_type_name(unsigned type);

struct fw_pci_config {
	size_t len;              /* bytes available */
	uint16_t vendor, device;
	uint8_t revision;
	uint32_t class_code;     /* base<<16 | sub<<8 | prog-if */
	uint8_t header_type;     /* without the multi-function bit */
	bool multifunction;
	bool bridge;             /* header type 1 */
	uint8_t primary_bus, secondary_bus, subordinate_bus;
	bool has_pcie;
	unsigned pcie_port_type; /* enum fw_pcie_port_type */
	unsigned link_cap_speed, link_cap_width, link_speed, link_width; /* generation (1..6) and lanes */
	bool extended_known;     /* 4 KiB were read, so absent extended caps are really absent */
	bool has_acs;
	uint16_t acs_offset, acs_cap, acs_ctl;
	bool has_ari, has_sriov, has_resizable_bar;
	uint16_t sriov_total_vfs;
	unsigned ext_cap_count;
	bool cap_loop;           /* a capability list pointed back into itself */
};

/* Decode what the bytes allow; false only when even the 64-byte header is missing. */
bool fw_pci_config_decode(const uint8_t *p, size_t len, struct fw_pci_config *out);
/* "Display controller (VGA)" style name of a class code. */
const char *fw_pci_class_name(uint32_t class_code);

#endif
