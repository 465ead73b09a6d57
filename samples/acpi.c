/* The ACPI data tables of the sample machine, encoded with the layouts of acpi/ (ivrs.h, srat.h,
 * ...) from the topology: IVRS (IVHD 11h and 40h for each of the 8 IOMMUs, EFR with the SNP bit, device ranges,
 * IOAPIC/HPET special entries, ACPI HID entries), SRAT (local APIC/x2APIC, memory, Generic
 * Initiators for the GPUs), SLIT, MCFG, MADT, FADT, FACS and HPET (reference/acpi.md). */
#include "acpi.h"

#include <string.h>

#include "acpi/fadt.h"
#include "acpi/gas.h"
#include "acpi/hpet.h"
#include "acpi/ivrs.h"
#include "acpi/madt.h"
#include "acpi/mcfg.h"
#include "acpi/slit.h"
#include "acpi/srat.h"
#include "acpi/table.h"

#define AMI_OEM "ALASKA", "A M I ", 0x01072009u, "AMI ", 0x00010013u
#define AMD_OEM "AMD   ", "AmdTable", 0x00000001u, "AMD ", 0x00000001u


static size_t header(struct sbuf *b, const char *sig, uint8_t revision, const char *oem, const char *table_id,
		     uint32_t oem_rev, const char *creator, uint32_t creator_rev)
{
	size_t h = sb_layout(b, &fw_acpi_header_layout);
	uint8_t *p = sb_at(b, h);
	const struct fw_layout *l = &fw_acpi_header_layout;
	fw_layout_put_bytes(l, p, SDT_SIGNATURE, sig, 4);
	fw_layout_put(l, p, SDT_REVISION, revision);
	fw_layout_put_bytes(l, p, SDT_OEM_ID, oem, strlen(oem));
	fw_layout_put_bytes(l, p, SDT_OEM_TABLE_ID, table_id, strlen(table_id));
	fw_layout_put(l, p, SDT_OEM_REVISION, oem_rev);
	fw_layout_put_bytes(l, p, SDT_CREATOR_ID, creator, 4);
	fw_layout_put(l, p, SDT_CREATOR_REVISION, creator_rev);
	return h;
}

static uint8_t *finish(struct sbuf *b, size_t *len)
{
	fw_layout_put(&fw_acpi_header_layout, b->p, SDT_LENGTH, b->len);
	fw_acpi_set_checksum(b->p, b->len);
	return sb_take(b, len);
}

/* Extend the buffer to a layout's size (from the table start) and return the table start. */
static uint8_t *extend(struct sbuf *b, const struct fw_layout *l)
{
	if (b->len < l->size)
		sb_put(b, NULL, l->size - b->len);
	return b->p;
}

/* ---- IVRS ---- */

#define EFR_TURIN                                                                                                  \
	(FW_EFR_SNP_SUP | FW_EFR_HD_SUP | FW_EFR_EPH_SUP | FW_EFR_HA_SUP | FW_EFR_GIO_SUP | FW_EFR_MSICAPMMIO_SUP |       \
	 (15ull << FW_EFR_PASMAX_SHIFT) | FW_EFR_GAM_VAPIC | (1ull << FW_EFR_GLX_SHIFT) | (2ull << FW_EFR_HATS_SHIFT) |  \
	 FW_EFR_PC_SUP | FW_EFR_HE_SUP | FW_EFR_GA_SUP | FW_EFR_IA_SUP | FW_EFR_GT_SUP | FW_EFR_NX_SUP |                \
	 FW_EFR_XT_SUP | FW_EFR_PPR_SUP | FW_EFR_PREF_SUP)
#define EFR2_TURIN 0x120ull /* SNPAVICSup = 1, NumIntRemapSup = 1 */

uint64_t acpi_iommu_efr(void) { return EFR_TURIN; }
uint64_t acpi_iommu_efr2(void) { return EFR2_TURIN; }

static void dev_entry(struct sbuf *b, uint8_t type, uint16_t id, uint8_t setting)
{
	size_t o = sb_layout(b, &fw_ivhd_device_layout);
	fw_layout_put(&fw_ivhd_device_layout, sb_at(b, o), IVDEV_TYPE, type);
	fw_layout_put(&fw_ivhd_device_layout, sb_at(b, o), IVDEV_DEVICE_ID, id);
	fw_layout_put(&fw_ivhd_device_layout, sb_at(b, o), IVDEV_SETTING, setting);
}

static void special_entry(struct sbuf *b, uint8_t handle, uint16_t source, uint8_t variety)
{
	size_t o = sb_layout(b, &fw_ivhd_special_layout);
	uint8_t *p = sb_at(b, o);
	fw_layout_put(&fw_ivhd_special_layout, p, IVSPECIAL_TYPE, FW_IVHD_DEV_SPECIAL);
	fw_layout_put(&fw_ivhd_special_layout, p, IVSPECIAL_SETTING, FW_IVHD_SETTING_LINT0_PASS | FW_IVHD_SETTING_LINT1_PASS |
									     FW_IVHD_SETTING_NMI_PASS | FW_IVHD_SETTING_EINT_PASS |
									     FW_IVHD_SETTING_INIT_PASS);
	fw_layout_put(&fw_ivhd_special_layout, p, IVSPECIAL_HANDLE, handle);
	fw_layout_put(&fw_ivhd_special_layout, p, IVSPECIAL_SOURCE_ID, source);
	fw_layout_put(&fw_ivhd_special_layout, p, IVSPECIAL_VARIETY, variety);
}

static void hid_entry(struct sbuf *b, uint16_t id, const char *hid, const char *uid)
{
	size_t o = sb_layout(b, &fw_ivhd_hid_layout);
	uint8_t *p = sb_at(b, o);
	fw_layout_put(&fw_ivhd_hid_layout, p, IVHID_TYPE, FW_IVHD_DEV_ACPI_HID);
	fw_layout_put(&fw_ivhd_hid_layout, p, IVHID_DEVICE_ID, id);
	fw_layout_put(&fw_ivhd_hid_layout, p, IVHID_SETTING, FW_IVHD_SETTING_LINT0_PASS);
	fw_layout_put_bytes(&fw_ivhd_hid_layout, p, IVHID_HID, hid, 8);
	fw_layout_put(&fw_ivhd_hid_layout, p, IVHID_UID_FORMAT, FW_IVHD_UID_STRING);
	fw_layout_put(&fw_ivhd_hid_layout, p, IVHID_UID_LENGTH, strlen(uid) + 1);
	sb_put_ascii(b, uid);
}

static void ivhd(struct sbuf *b, const struct topo_rb *rb, uint8_t type)
{
	size_t start = b->len;
	sb_layout(b, &fw_ivhd11_layout);
	uint8_t *p = sb_at(b, start);
	const struct fw_layout *l = &fw_ivhd11_layout;
	fw_layout_put(l, p, IVHD_TYPE, type);
	fw_layout_put(l, p, IVHD_FLAGS, 0x30); /* IotlbSup | Coherent */
	fw_layout_put(l, p, IVHD_DEVICE_ID, rb->iommu_bdf);
	fw_layout_put(l, p, IVHD_CAPABILITY_OFFSET, 0x40);
	fw_layout_put(l, p, IVHD_BASE_ADDRESS, rb->iommu_base);
	fw_layout_put(l, p, IVHD_PCI_SEGMENT, 0);
	fw_layout_put(l, p, IVHD_INFO, 0);
	fw_layout_put(l, p, IVHD_FEATURES, 0x00048000); /* PNCounters 4, PNBanks 2 */
	fw_layout_put(l, p, IVHD_EFR, EFR_TURIN);
	fw_layout_put(l, p, IVHD_EFR2, EFR2_TURIN);
	/* every function of the root bridge's buses, from the function after the IOMMU */
	dev_entry(b, FW_IVHD_DEV_RANGE_START, (uint16_t)(rb->bus << 8 | 0x03), 0);
	dev_entry(b, FW_IVHD_DEV_RANGE_END, (uint16_t)(rb->bus_end << 8 | 0xFF), 0);
	if (rb->index == 0) {
		special_entry(b, 0xF0, 0x00A0, FW_IVHD_SPECIAL_IOAPIC); /* FCH IOAPIC behind 00:14.0 */
		special_entry(b, 0x00, 0x00A0, FW_IVHD_SPECIAL_HPET);
	}
	special_entry(b, rb->ioapic_id, (uint16_t)(rb->bus << 8 | 0x01), FW_IVHD_SPECIAL_IOAPIC);
	if (type == FW_IVRS_IVHD_40 && rb->index == 0) {
		hid_entry(b, 0x00A5, "AMDI0020", "\\_SB.FUR0");
		hid_entry(b, 0x00A5, "AMDI0020", "\\_SB.FUR1");
	}
	fw_layout_put(l, sb_at(b, start), IVHD_LENGTH, b->len - start);
}

static uint8_t *ivrs(const struct topology *t, size_t *len)
{
	struct sbuf b = {0};
	header(&b, "IVRS", 2, AMD_OEM);
	uint8_t *p = extend(&b, &fw_ivrs_layout);
	/* EFRSup; GVA 48 bits (2), PA 52 bits, VA 64 bits */
	fw_layout_put(&fw_ivrs_layout, p, IVRS_IVINFO,
		      FW_IVINFO_EFR_SUPPORTED | (2u << FW_IVINFO_GVA_SIZE_SHIFT) | (0x34u << FW_IVINFO_PA_SIZE_SHIFT) |
			      (0x40u << FW_IVINFO_VA_SIZE_SHIFT));
	/* as AMD firmware emits them: every IOMMU as 11h, then every IOMMU as 40h */
	for (int i = 0; i < TOPO_RBS; i++)
		ivhd(&b, &t->rbs[i], FW_IVRS_IVHD_11);
	for (int i = 0; i < TOPO_RBS; i++)
		ivhd(&b, &t->rbs[i], FW_IVRS_IVHD_40);
	return finish(&b, len);
}

/* ---- SRAT, SLIT ---- */

static uint8_t *srat(const struct topology *t, size_t *len)
{
	struct sbuf b = {0};
	header(&b, "SRAT", 3, AMD_OEM);
	uint8_t *p = extend(&b, &fw_srat_layout);
	fw_layout_put(&fw_srat_layout, p, SRAT_TABLE_REVISION, 1);
	for (int cpu = 0; cpu < TOPO_CPUS; cpu++) {
		uint32_t apic = topo_apic_id(cpu);
		uint32_t pd = (uint32_t)topo_cpu_pxm(t, cpu);
		if (apic < 0xFF) {
			size_t o = sb_layout(&b, &fw_srat_apic_layout);
			uint8_t *e = sb_at(&b, o);
			fw_layout_put(&fw_srat_apic_layout, e, SRAT_APIC_TYPE, FW_SRAT_LOCAL_APIC);
			fw_layout_put(&fw_srat_apic_layout, e, SRAT_APIC_LENGTH, 16);
			fw_layout_put(&fw_srat_apic_layout, e, SRAT_APIC_PD_LO, pd & 0xFF);
			fw_layout_put(&fw_srat_apic_layout, e, SRAT_APIC_APIC_ID, apic);
			fw_layout_put(&fw_srat_apic_layout, e, SRAT_APIC_FLAGS, FW_SRAT_CPU_ENABLED);
			fw_layout_put(&fw_srat_apic_layout, e, SRAT_APIC_PD_HI, pd >> 8);
		} else {
			size_t o = sb_layout(&b, &fw_srat_x2apic_layout);
			uint8_t *e = sb_at(&b, o);
			fw_layout_put(&fw_srat_x2apic_layout, e, SRAT_X2APIC_TYPE, FW_SRAT_X2APIC);
			fw_layout_put(&fw_srat_x2apic_layout, e, SRAT_X2APIC_LENGTH, 24);
			fw_layout_put(&fw_srat_x2apic_layout, e, SRAT_X2APIC_PD, pd);
			fw_layout_put(&fw_srat_x2apic_layout, e, SRAT_X2APIC_ID, apic);
			fw_layout_put(&fw_srat_x2apic_layout, e, SRAT_X2APIC_FLAGS, FW_SRAT_CPU_ENABLED);
		}
	}
	for (int pd = 0; pd < topo_domains(t); pd++)
		for (int r = 0; r < t->nmem[pd]; r++) {
			size_t o = sb_layout(&b, &fw_srat_memory_layout);
			uint8_t *e = sb_at(&b, o);
			fw_layout_put(&fw_srat_memory_layout, e, SRAT_MEM_TYPE, FW_SRAT_MEMORY);
			fw_layout_put(&fw_srat_memory_layout, e, SRAT_MEM_LENGTH, 40);
			fw_layout_put(&fw_srat_memory_layout, e, SRAT_MEM_PD, pd);
			fw_layout_put(&fw_srat_memory_layout, e, SRAT_MEM_BASE, t->mem[pd][r].base);
			fw_layout_put(&fw_srat_memory_layout, e, SRAT_MEM_SIZE, t->mem[pd][r].size);
			fw_layout_put(&fw_srat_memory_layout, e, SRAT_MEM_FLAGS, FW_SRAT_MEM_ENABLED);
		}
	/* the GPUs as Generic Initiators, in the domain of their root bridge */
	for (int i = 0; i < t->ndevs; i++) {
		const struct topo_dev *d = &t->devs[i];
		if (d->kind != DEV_GPU)
			continue;
		size_t o = sb_layout(&b, &fw_srat_gi_layout);
		uint8_t *e = sb_at(&b, o);
		fw_layout_put(&fw_srat_gi_layout, e, SRAT_GI_TYPE, FW_SRAT_GENERIC_INITIATOR);
		fw_layout_put(&fw_srat_gi_layout, e, SRAT_GI_LENGTH, 32);
		fw_layout_put(&fw_srat_gi_layout, e, SRAT_GI_HANDLE_TYPE, FW_SRAT_GI_HANDLE_PCI);
		fw_layout_put(&fw_srat_gi_layout, e, SRAT_GI_PD, topo_rb_pxm(t, &t->rbs[d->rb]));
		uint8_t handle[16] = {0};
		fw_layout_put(&fw_srat_pci_handle_layout, handle, SRAT_PCI_HANDLE_SEGMENT, 0);
		fw_layout_put(&fw_srat_pci_handle_layout, handle, SRAT_PCI_HANDLE_BUS, topo_rid(d) >> 8);
		fw_layout_put(&fw_srat_pci_handle_layout, handle, SRAT_PCI_HANDLE_DEVFN, topo_rid(d) & 0xFF);
		fw_layout_put_bytes(&fw_srat_gi_layout, e, SRAT_GI_HANDLE, handle, sizeof(handle));
		fw_layout_put(&fw_srat_gi_layout, e, SRAT_GI_FLAGS, FW_SRAT_GI_ENABLED);
	}
	return finish(&b, len);
}

uint8_t acpi_slit_distance(const struct topology *t, int a, int b)
{
	if (a == b)
		return FW_SLIT_LOCAL_DISTANCE;
	int sa = t->nps == 4 ? a / 4 : a, sb = t->nps == 4 ? b / 4 : b;
	return sa == sb ? 12 : 32;
}

static uint8_t *slit(const struct topology *t, size_t *len)
{
	struct sbuf b = {0};
	header(&b, "SLIT", 1, AMD_OEM);
	uint8_t *p = extend(&b, &fw_slit_layout);
	int n = topo_domains(t);
	fw_layout_put(&fw_slit_layout, p, SLIT_LOCALITY_COUNT, n);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			sb_put8(&b, acpi_slit_distance(t, i, j));
	return finish(&b, len);
}

/* ---- MCFG, MADT, HPET ---- */

static uint8_t *mcfg(size_t *len)
{
	struct sbuf b = {0};
	header(&b, "MCFG", 1, AMI_OEM);
	extend(&b, &fw_mcfg_layout);
	size_t o = sb_layout(&b, &fw_mcfg_allocation_layout);
	uint8_t *e = sb_at(&b, o);
	fw_layout_put(&fw_mcfg_allocation_layout, e, MCFG_ALLOC_BASE, ACPI_ECAM_BASE);
	fw_layout_put(&fw_mcfg_allocation_layout, e, MCFG_ALLOC_SEGMENT, 0);
	fw_layout_put(&fw_mcfg_allocation_layout, e, MCFG_ALLOC_START_BUS, 0);
	fw_layout_put(&fw_mcfg_allocation_layout, e, MCFG_ALLOC_END_BUS, 0xFF);
	return finish(&b, len);
}

static void madt_ioapic(struct sbuf *b, uint8_t id, uint32_t address, uint32_t gsi)
{
	size_t o = sb_layout(b, &fw_madt_io_apic_layout);
	uint8_t *e = sb_at(b, o);
	fw_layout_put(&fw_madt_io_apic_layout, e, MADT_IOAPIC_TYPE, FW_MADT_IO_APIC);
	fw_layout_put(&fw_madt_io_apic_layout, e, MADT_IOAPIC_LENGTH, 12);
	fw_layout_put(&fw_madt_io_apic_layout, e, MADT_IOAPIC_ID, id);
	fw_layout_put(&fw_madt_io_apic_layout, e, MADT_IOAPIC_ADDRESS, address);
	fw_layout_put(&fw_madt_io_apic_layout, e, MADT_IOAPIC_GSI_BASE, gsi);
}

static void madt_override(struct sbuf *b, uint8_t irq, uint32_t gsi, uint16_t flags)
{
	size_t o = sb_layout(b, &fw_madt_interrupt_override_layout);
	uint8_t *e = sb_at(b, o);
	fw_layout_put(&fw_madt_interrupt_override_layout, e, MADT_ISO_TYPE, FW_MADT_INTERRUPT_OVERRIDE);
	fw_layout_put(&fw_madt_interrupt_override_layout, e, MADT_ISO_LENGTH, 10);
	fw_layout_put(&fw_madt_interrupt_override_layout, e, MADT_ISO_SOURCE_IRQ, irq);
	fw_layout_put(&fw_madt_interrupt_override_layout, e, MADT_ISO_GSI, gsi);
	fw_layout_put(&fw_madt_interrupt_override_layout, e, MADT_ISO_FLAGS, flags);
}

static uint8_t *madt(const struct topology *t, size_t *len)
{
	struct sbuf b = {0};
	header(&b, "APIC", 5, AMI_OEM);
	uint8_t *p = extend(&b, &fw_madt_layout);
	fw_layout_put(&fw_madt_layout, p, MADT_LOCAL_APIC_ADDRESS, 0xFEE00000u);
	fw_layout_put(&fw_madt_layout, p, MADT_FLAGS, FW_MADT_PCAT_COMPAT);
	/* processors in Linux order; IDs above 254 need the x2APIC structure */
	for (int cpu = 0; cpu < TOPO_CPUS; cpu++) {
		uint32_t apic = topo_apic_id(cpu);
		if (apic < 0xFF) {
			size_t o = sb_layout(&b, &fw_madt_local_apic_layout);
			uint8_t *e = sb_at(&b, o);
			fw_layout_put(&fw_madt_local_apic_layout, e, MADT_LAPIC_TYPE, FW_MADT_LOCAL_APIC);
			fw_layout_put(&fw_madt_local_apic_layout, e, MADT_LAPIC_LENGTH, 8);
			fw_layout_put(&fw_madt_local_apic_layout, e, MADT_LAPIC_UID, cpu & 0xFF);
			fw_layout_put(&fw_madt_local_apic_layout, e, MADT_LAPIC_ID, apic);
			fw_layout_put(&fw_madt_local_apic_layout, e, MADT_LAPIC_FLAGS, FW_MADT_CPU_ENABLED);
		} else {
			size_t o = sb_layout(&b, &fw_madt_local_x2apic_layout);
			uint8_t *e = sb_at(&b, o);
			fw_layout_put(&fw_madt_local_x2apic_layout, e, MADT_X2APIC_TYPE, FW_MADT_LOCAL_X2APIC);
			fw_layout_put(&fw_madt_local_x2apic_layout, e, MADT_X2APIC_LENGTH, 16);
			fw_layout_put(&fw_madt_local_x2apic_layout, e, MADT_X2APIC_ID, apic);
			fw_layout_put(&fw_madt_local_x2apic_layout, e, MADT_X2APIC_FLAGS, FW_MADT_CPU_ENABLED);
			fw_layout_put(&fw_madt_local_x2apic_layout, e, MADT_X2APIC_UID, cpu);
		}
	}
	madt_ioapic(&b, 0xF0, 0xFEC00000u, 0); /* FCH */
	for (int i = 0; i < TOPO_RBS; i++)
		madt_ioapic(&b, t->rbs[i].ioapic_id, t->rbs[i].ioapic_base, t->rbs[i].gsi_base);
	madt_override(&b, 0, 2, 0x0000);
	madt_override(&b, 9, 9, 0x000F); /* level, active low */
	size_t o = sb_layout(&b, &fw_madt_local_x2apic_nmi_layout);
	uint8_t *e = sb_at(&b, o);
	fw_layout_put(&fw_madt_local_x2apic_nmi_layout, e, MADT_X2NMI_TYPE, FW_MADT_LOCAL_X2APIC_NMI);
	fw_layout_put(&fw_madt_local_x2apic_nmi_layout, e, MADT_X2NMI_LENGTH, 12);
	fw_layout_put(&fw_madt_local_x2apic_nmi_layout, e, MADT_X2NMI_FLAGS, 0x0005);
	fw_layout_put(&fw_madt_local_x2apic_nmi_layout, e, MADT_X2NMI_UID, 0xFFFFFFFFu);
	fw_layout_put(&fw_madt_local_x2apic_nmi_layout, e, MADT_X2NMI_LINT, 1);
	return finish(&b, len);
}

static void gas(uint8_t *p, uint8_t space, uint8_t bits, uint8_t access, uint64_t address)
{
	fw_layout_put(&fw_gas_layout, p, GAS_SPACE_ID, space);
	fw_layout_put(&fw_gas_layout, p, GAS_BIT_WIDTH, bits);
	fw_layout_put(&fw_gas_layout, p, GAS_ACCESS_WIDTH, access);
	fw_layout_put(&fw_gas_layout, p, GAS_ADDRESS, address);
}

static uint8_t *hpet(size_t *len)
{
	struct sbuf b = {0};
	header(&b, "HPET", 1, AMI_OEM);
	uint8_t *p = extend(&b, &fw_hpet_layout);
	fw_layout_put(&fw_hpet_layout, p, HPET_BLOCK_ID, 0x10228201u); /* AMD, 3 comparators, 64-bit, legacy */
	gas(p + fw_hpet_layout.fields[HPET_ADDRESS].offset, FW_GAS_SYSTEM_MEMORY, 64, 0, 0xFED00000u);
	fw_layout_put(&fw_hpet_layout, p, HPET_MINIMUM_TICK, 0x37EE);
	return finish(&b, len);
}

/* ---- FADT, FACS ---- */

static uint8_t *fadt(size_t *len)
{
	struct sbuf b = {0};
	header(&b, "FACP", 6, AMI_OEM);
	uint8_t *p = extend(&b, &fw_fadt_layout);
	const struct fw_layout *l = &fw_fadt_layout;
	fw_layout_put(l, p, FADT_FIRMWARE_CTRL, ACPI_FACS_ADDRESS);
	fw_layout_put(l, p, FADT_DSDT, ACPI_DSDT_ADDRESS);
	fw_layout_put(l, p, FADT_PREFERRED_PM_PROFILE, 4); /* enterprise server */
	fw_layout_put(l, p, FADT_SCI_INTERRUPT, 9);
	fw_layout_put(l, p, FADT_SMI_COMMAND, 0xB2);
	fw_layout_put(l, p, FADT_ACPI_ENABLE, 0xA0);
	fw_layout_put(l, p, FADT_ACPI_DISABLE, 0xA1);
	fw_layout_put(l, p, FADT_PM1A_EVENT_BLOCK, 0x800);
	fw_layout_put(l, p, FADT_PM1A_CONTROL_BLOCK, 0x804);
	fw_layout_put(l, p, FADT_PM_TIMER_BLOCK, 0x808);
	fw_layout_put(l, p, FADT_GPE0_BLOCK, 0x820);
	fw_layout_put(l, p, FADT_PM1_EVENT_LENGTH, 4);
	fw_layout_put(l, p, FADT_PM1_CONTROL_LENGTH, 2);
	fw_layout_put(l, p, FADT_PM_TIMER_LENGTH, 4);
	fw_layout_put(l, p, FADT_GPE0_BLOCK_LENGTH, 8);
	fw_layout_put(l, p, FADT_C2_LATENCY, 0x65); /* > 100: C2 not supported */
	fw_layout_put(l, p, FADT_C3_LATENCY, 0x3E9);
	fw_layout_put(l, p, FADT_DAY_ALARM, 0x0D);
	fw_layout_put(l, p, FADT_CENTURY, 0x32);
	fw_layout_put(l, p, FADT_FLAGS,
		      FW_FADT_WBINVD | FW_FADT_PROC_C1 | FW_FADT_PWR_BUTTON | FW_FADT_SLP_BUTTON | FW_FADT_RTC_S4 |
			      FW_FADT_TMR_VAL_EXT | FW_FADT_RESET_REG_SUP | FW_FADT_REMOTE_POWER_ON);
	gas(p + l->fields[FADT_RESET_REGISTER].offset, FW_GAS_SYSTEM_IO, 8, 0, 0xCF9);
	fw_layout_put(l, p, FADT_RESET_VALUE, 0x06);
	fw_layout_put(l, p, FADT_MINOR_REVISION, 3);
	fw_layout_put(l, p, FADT_X_FIRMWARE_CTRL, 0);
	fw_layout_put(l, p, FADT_X_DSDT, ACPI_DSDT_ADDRESS);
	gas(p + l->fields[FADT_X_PM1A_EVENT_BLOCK].offset, FW_GAS_SYSTEM_IO, 32, 2, 0x800);
	gas(p + l->fields[FADT_X_PM1A_CONTROL_BLOCK].offset, FW_GAS_SYSTEM_IO, 16, 2, 0x804);
	gas(p + l->fields[FADT_X_PM_TIMER_BLOCK].offset, FW_GAS_SYSTEM_IO, 32, 3, 0x808);
	gas(p + l->fields[FADT_X_GPE0_BLOCK].offset, FW_GAS_SYSTEM_IO, 64, 1, 0x820);
	return finish(&b, len);
}

static uint8_t *facs(size_t *len)
{
	struct sbuf b = {0};
	uint8_t *p = sb_at(&b, sb_layout(&b, &fw_facs_layout));
	const struct fw_layout *l = &fw_facs_layout;
	fw_layout_put_bytes(l, p, FACS_SIGNATURE, "FACS", 4);
	fw_layout_put(l, p, FACS_LENGTH, FW_FACS_SIZE);
	fw_layout_put(l, p, FACS_HARDWARE_SIGNATURE, 0x4B15D24u);
	fw_layout_put(l, p, FACS_VERSION, 2);
	return sb_take(&b, len);
}

void acpi_tables(const struct topology *t, struct acpi_table out[ACPI_DATA_TABLES])
{
	out[0] = (struct acpi_table){"APIC", NULL, 0};
	out[0].data = madt(t, &out[0].len);
	out[1] = (struct acpi_table){"FACP", NULL, 0};
	out[1].data = fadt(&out[1].len);
	out[2] = (struct acpi_table){"FACS", NULL, 0};
	out[2].data = facs(&out[2].len);
	out[3] = (struct acpi_table){"HPET", NULL, 0};
	out[3].data = hpet(&out[3].len);
	out[4] = (struct acpi_table){"IVRS", NULL, 0};
	out[4].data = ivrs(t, &out[4].len);
	out[5] = (struct acpi_table){"MCFG", NULL, 0};
	out[5].data = mcfg(&out[5].len);
	out[6] = (struct acpi_table){"SLIT", NULL, 0};
	out[6].data = slit(t, &out[6].len);
	out[7] = (struct acpi_table){"SRAT", NULL, 0};
	out[7].data = srat(t, &out[7].len);
}
