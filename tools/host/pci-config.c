/* PCI configuration space decoding. */
#include "pci-config.h"

#include <stdio.h>
#include <string.h>

#include "parsers/view.h"

static const struct fw_field header_fields[PCI_HDR__COUNT] = {
	[PCI_VENDOR_ID] = {"VendorId", FW_FT_U16, 0x00, 0, FW_FF_HEX, NULL},
	[PCI_DEVICE_ID] = {"DeviceId", FW_FT_U16, 0x02, 0, FW_FF_HEX, NULL},
	[PCI_COMMAND] = {"Command", FW_FT_U16, 0x04, 0, FW_FF_HEX, NULL},
	[PCI_STATUS] = {"Status", FW_FT_U16, 0x06, 0, FW_FF_HEX, NULL},
	[PCI_REVISION] = {"RevisionId", FW_FT_U8, 0x08, 0, FW_FF_HEX, NULL},
	[PCI_CLASS_CODE] = {"ClassCode", FW_FT_U24, 0x09, 0, FW_FF_HEX, NULL},
	[PCI_HEADER_TYPE] = {"HeaderType", FW_FT_U8, 0x0E, 0, FW_FF_HEX, NULL},
	[PCI_CAP_POINTER] = {"CapabilitiesPointer", FW_FT_U8, 0x34, 0, FW_FF_HEX, NULL},
	[PCI_PRIMARY_BUS] = {"PrimaryBus", FW_FT_U8, 0x18, 0, FW_FF_HEX, NULL},
	[PCI_SECONDARY_BUS] = {"SecondaryBus", FW_FT_U8, 0x19, 0, FW_FF_HEX, NULL},
	[PCI_SUBORDINATE_BUS] = {"SubordinateBus", FW_FT_U8, 0x1A, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_pci_header_layout = FW_LAYOUT("PCI configuration header", 64, header_fields);

#define PCI_STATUS_CAP_LIST 0x0010
#define PCI_CAP_ID_EXP 0x10
#define PCI_EXT_CAP_ACS 0x000D
#define PCI_EXT_CAP_ARI 0x000E
#define PCI_EXT_CAP_SRIOV 0x0010
#define PCI_EXT_CAP_REBAR 0x0015

char *fw_pci_acs_str(uint16_t bits, uint16_t cap, char *buf, size_t len)
{
	static const struct {
		uint16_t bit;
		const char *name;
	} names[] = {
		{FW_PCI_ACS_SV, "SrcValid"}, {FW_PCI_ACS_TB, "TransBlk"}, {FW_PCI_ACS_RR, "ReqRedir"},
		{FW_PCI_ACS_CR, "CmpltRedir"}, {FW_PCI_ACS_UF, "UpstreamFwd"}, {FW_PCI_ACS_EC, "EgressCtrl"},
		{FW_PCI_ACS_DT, "DirectTrans"},
	};
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(cap & names[i].bit))
			continue; /* a control bit the port cannot implement says nothing */
		int w = snprintf(buf + used, len - used, "%s%s%c", used ? " " : "", names[i].name,
				 (bits & names[i].bit) ? '+' : '-');
		if (w < 0 || (size_t)w >= len - used)
			break;
		used += (size_t)w;
	}
	return buf;
}

const char *fw_pcie_port_type_name(unsigned type)
{
	switch (type) {
	case FW_PCIE_ENDPOINT: return "Endpoint";
	case FW_PCIE_LEGACY_ENDPOINT: return "Legacy Endpoint";
	case FW_PCIE_ROOT_PORT: return "Root Port";
	case FW_PCIE_UPSTREAM_PORT: return "Upstream Port";
	case FW_PCIE_DOWNSTREAM_PORT: return "Downstream Port";
	case FW_PCIE_PCIE_TO_PCI_BRIDGE: return "PCIe to PCI Bridge";
	case FW_PCIE_PCI_TO_PCIE_BRIDGE: return "PCI to PCIe Bridge";
	case FW_PCIE_RC_INTEGRATED_ENDPOINT: return "Root Complex Integrated Endpoint";
	case FW_PCIE_RC_EVENT_COLLECTOR: return "Root Complex Event Collector";
	}
	return "Unknown";
}

bool fw_pci_config_decode(const uint8_t *p, size_t len, struct fw_pci_config *c)
{
	memset(c, 0, sizeof(*c));
	struct fw_view v = fw_view_make(p, len, 0);
	if (!fw_layout_check(&fw_pci_header_layout, &v, 0, NULL))
		return false;
	const struct fw_layout *l = &fw_pci_header_layout;
	c->len = len;
	c->vendor = (uint16_t)fw_layout_get(l, &v, 0, PCI_VENDOR_ID);
	c->device = (uint16_t)fw_layout_get(l, &v, 0, PCI_DEVICE_ID);
	c->revision = (uint8_t)fw_layout_get(l, &v, 0, PCI_REVISION);
	c->class_code = (uint32_t)fw_layout_get(l, &v, 0, PCI_CLASS_CODE);
	uint8_t ht = (uint8_t)fw_layout_get(l, &v, 0, PCI_HEADER_TYPE);
	c->header_type = ht & 0x7F;
	c->multifunction = (ht & 0x80) != 0;
	c->bridge = c->header_type == 1;
	if (c->bridge) {
		c->primary_bus = (uint8_t)fw_layout_get(l, &v, 0, PCI_PRIMARY_BUS);
		c->secondary_bus = (uint8_t)fw_layout_get(l, &v, 0, PCI_SECONDARY_BUS);
		c->subordinate_bus = (uint8_t)fw_layout_get(l, &v, 0, PCI_SUBORDINATE_BUS);
	}

	/* Standard capabilities: at most 48 entries fit in 192 bytes; a visited map catches loops. */
	uint8_t seen[64] = {0};
	uint16_t status = (uint16_t)fw_layout_get(l, &v, 0, PCI_STATUS);
	uint8_t ptr = (status & PCI_STATUS_CAP_LIST) ? (uint8_t)(fw_layout_get(l, &v, 0, PCI_CAP_POINTER) & 0xFC) : 0;
	while (ptr >= 0x40 && fw_view_has(&v, ptr, 2)) {
		if (seen[ptr >> 2]) {
			c->cap_loop = true;
			break;
		}
		seen[ptr >> 2] = 1;
		uint8_t id = p[ptr];
		if (id == PCI_CAP_ID_EXP && fw_view_has(&v, ptr, 0x14)) {
			c->has_pcie = true;
			c->pcie_port_type = (fw_le16(p + ptr + 2) >> 4) & 0xF;
			uint32_t lnkcap = fw_le32(p + ptr + 0x0C);
			uint16_t lnksta = fw_le16(p + ptr + 0x12);
			c->link_cap_speed = lnkcap & 0xF;
			c->link_cap_width = (lnkcap >> 4) & 0x3F;
			c->link_speed = lnksta & 0xF;
			c->link_width = (lnksta >> 4) & 0x3F;
		}
		ptr = p[ptr + 1] & 0xFC;
	}

	/* Extended capabilities start at 0x100 and only exist for PCIe devices read as root. */
	if (len < 0x1000 || !c->has_pcie)
		return true;
	c->extended_known = true;
	uint8_t eseen[1024 / 8] = {0};
	uint32_t off = 0x100;
	while (off >= 0x100 && off + 4 <= len) {
		unsigned slot = off >> 2;
		if (eseen[slot >> 3] & (1u << (slot & 7))) {
			c->cap_loop = true;
			break;
		}
		eseen[slot >> 3] |= (uint8_t)(1u << (slot & 7));
		uint32_t h = fw_le32(p + off);
		if (h == 0 || h == 0xFFFFFFFF)
			break;
		uint16_t id = (uint16_t)(h & 0xFFFF);
		c->ext_cap_count++;
		if (id == PCI_EXT_CAP_ACS && off + 8 <= len) {
			c->has_acs = true;
			c->acs_offset = (uint16_t)off;
			c->acs_cap = fw_le16(p + off + 4);
			c->acs_ctl = fw_le16(p + off + 6);
		} else if (id == PCI_EXT_CAP_ARI) {
			c->has_ari = true;
		} else if (id == PCI_EXT_CAP_SRIOV && off + 0x10 <= len) {
			c->has_sriov = true;
			c->sriov_total_vfs = fw_le16(p + off + 0x0E);
		} else if (id == PCI_EXT_CAP_REBAR) {
			c->has_resizable_bar = true;
		}
		off = (h >> 20) & 0xFFC;
	}
	return true;
}

const char *fw_pci_class_name(uint32_t cc)
{
	uint8_t base = (uint8_t)(cc >> 16), sub = (uint8_t)(cc >> 8);
	switch (base) {
	case 0x01: return sub == 0x08 ? "NVMe controller" : "Mass storage controller";
	case 0x02: return "Network controller";
	case 0x03: return sub == 0x00 ? "VGA compatible controller" : sub == 0x02 ? "3D controller" : "Display controller";
	case 0x04: return "Multimedia controller";
	case 0x05: return "Memory controller";
	case 0x06:
		switch (sub) {
		case 0x00: return "Host bridge";
		case 0x01: return "ISA bridge";
		case 0x04: return "PCI bridge";
		default: return "Bridge";
		}
	case 0x07: return "Communication controller";
	case 0x08: return sub == 0x06 ? "IOMMU" : "System peripheral";
	case 0x0B: return "Processor";
	case 0x0C: return sub == 0x03 ? "USB controller" : sub == 0x05 ? "SMBus" : "Serial bus controller";
	case 0x10: return "Encryption controller";
	case 0x11: return "Signal processing controller";
	case 0x12: return "Processing accelerator";
	case 0x13: return "Non-essential instrumentation";
	}
	return "Unclassified device";
}
