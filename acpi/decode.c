/* The signature dispatch table (see acpi/decode.h for how to add a decoder). */
#include "decode.h"

#include <string.h>

#include "acpi/cedt.h"
#include "acpi/pptt.h"
#include "acpi/dmar.h"
#include "acpi/fields.h"
#include "acpi/fadt.h"
#include "acpi/hmat.h"
#include "acpi/ivrs.h"
#include "acpi/madt.h"
#include "acpi/mcfg.h"
#include "acpi/rsdp.h"
#include "acpi/slit.h"
#include "acpi/srat.h"
#include "acpi/xsdt.h"

/* Tables described by their layout (acpi/<sig>.c); a HOOKED_LAYOUT row adds a model. */
extern const struct fw_acpi_layout fw_acpi_bert_table;
extern const struct fw_acpi_layout fw_acpi_bgrt_table;
extern const struct fw_acpi_layout fw_acpi_cdit_table;
extern const struct fw_acpi_layout fw_acpi_cedt_table;
extern const struct fw_acpi_layout fw_acpi_pptt_table;
void *fw_acpi_cdit_decode(struct fw_acpi_table *t, struct fw_arena *a);
extern const struct fw_acpi_layout fw_acpi_crat_table;
extern const struct fw_acpi_layout fw_acpi_dmar_table;
extern const struct fw_acpi_layout fw_acpi_einj_table;
extern const struct fw_acpi_layout fw_acpi_erst_table;
extern const struct fw_acpi_layout fw_acpi_facs_table;
extern const struct fw_acpi_layout fw_acpi_fadt_table;
extern const struct fw_acpi_layout fw_acpi_fpdt_table;
extern const struct fw_acpi_layout fw_acpi_hest_table;
extern const struct fw_acpi_layout fw_acpi_hmat_table;
extern const struct fw_acpi_layout fw_acpi_hpet_table;
extern const struct fw_acpi_layout fw_acpi_ivrs_table;
extern const struct fw_acpi_layout fw_acpi_madt_table;
extern const struct fw_acpi_layout fw_acpi_mcfg_table;
extern const struct fw_acpi_layout fw_acpi_msct_table;
extern const struct fw_acpi_layout fw_acpi_pcct_table;
extern const struct fw_acpi_layout fw_acpi_rasf_table;
extern const struct fw_acpi_layout fw_acpi_rsdp_table;
extern const struct fw_acpi_layout fw_acpi_rsdt_table;
extern const struct fw_acpi_layout fw_acpi_slit_table;
extern const struct fw_acpi_layout fw_acpi_spcr_table;
extern const struct fw_acpi_layout fw_acpi_spmi_table;
extern const struct fw_acpi_layout fw_acpi_srat_table;
extern const struct fw_acpi_layout fw_acpi_uefi_table;
extern const struct fw_acpi_layout fw_acpi_wsmt_table;
extern const struct fw_acpi_layout fw_acpi_xsdt_table;

#define HOOK(sig, name, kind, fn) {sig, name, FW_ACPI_MODEL_##kind, fn, NULL}
#define LAYOUT(sig, name, layout) {sig, name, FW_ACPI_MODEL_FIELDS, NULL, &layout}
#define HOOKED_LAYOUT(sig, name, kind, fn, layout) {sig, name, FW_ACPI_MODEL_##kind, fn, &layout}
#define NAMED(sig, name) {sig, name, FW_ACPI_MODEL_NONE, NULL, NULL}

static const struct fw_acpi_decoder decoders[] = {
	HOOKED_LAYOUT("RSDP", "Root System Description Pointer", RSDP, fw_acpi_rsdp_decode, fw_acpi_rsdp_table),
	HOOKED_LAYOUT("XSDT", "Extended System Description Table", XSDT, fw_acpi_xsdt_decode, fw_acpi_xsdt_table),
	HOOKED_LAYOUT("RSDT", "Root System Description Table", XSDT, fw_acpi_xsdt_decode, fw_acpi_rsdt_table),
	HOOKED_LAYOUT("IVRS", "I/O Virtualization Reporting Structure (AMD IOMMU)", IVRS, fw_acpi_ivrs_decode, fw_acpi_ivrs_table),
	HOOKED_LAYOUT("SRAT", "System Resource Affinity Table", SRAT, fw_acpi_srat_decode, fw_acpi_srat_table),
	HOOKED_LAYOUT("SLIT", "System Locality Distance Information Table", SLIT, fw_acpi_slit_decode, fw_acpi_slit_table),
	HOOKED_LAYOUT("MCFG", "PCI Express Memory-mapped Configuration", MCFG, fw_acpi_mcfg_decode, fw_acpi_mcfg_table),
	HOOKED_LAYOUT("DMAR", "DMA Remapping Table (Intel VT-d)", DMAR, fw_acpi_dmar_decode, fw_acpi_dmar_table),
	HOOKED_LAYOUT("APIC", "Multiple APIC Description Table (MADT)", MADT, fw_acpi_madt_decode, fw_acpi_madt_table),
	HOOKED_LAYOUT("FACP", "Fixed ACPI Description Table (FADT)", FADT, fw_acpi_fadt_decode, fw_acpi_fadt_table),
	HOOKED_LAYOUT("HMAT", "Heterogeneous Memory Attribute Table", HMAT, fw_acpi_hmat_decode, fw_acpi_hmat_table),
	HOOKED_LAYOUT("CEDT", "CXL Early Discovery Table", CEDT, fw_acpi_cedt_decode, fw_acpi_cedt_table),
	HOOKED_LAYOUT("PPTT", "Processor Properties Topology Table", PPTT, fw_acpi_pptt_decode, fw_acpi_pptt_table),
	LAYOUT("FACS", "Firmware ACPI Control Structure (no checksum)", fw_acpi_facs_table),
	/* Alphabetical: LAYOUT rows are decoded from their layout, NAMED rows are listed by name only. */
	NAMED("DSDT", "Differentiated System Description Table (AML)"),
	NAMED("SSDT", "Secondary System Description Table (AML)"),
	NAMED("ASF!", "Alert Standard Format Table"),
	NAMED("ASPT", "AMD Secure Processor Table"),
	NAMED("BDAT", "BIOS Data ACPI Table"),
	LAYOUT("BERT", "Boot Error Record Table", fw_acpi_bert_table),
	LAYOUT("BGRT", "Boot Graphics Resource Table", fw_acpi_bgrt_table),
	NAMED("BOOT", "Simple Boot Flag Table"),
	HOOKED_LAYOUT("CDIT", "Component Distance Information Table (AMD)", FIELDS, fw_acpi_cdit_decode, fw_acpi_cdit_table),
	LAYOUT("CRAT", "Component Resource Attribute Table (AMD)", fw_acpi_crat_table),
	NAMED("CSRT", "Core System Resource Table"),
	NAMED("DBG2", "Debug Port Table 2"),
	NAMED("DBGP", "Debug Port Table"),
	NAMED("ECDT", "Embedded Controller Boot Resources Table"),
	LAYOUT("EINJ", "Error Injection Table", fw_acpi_einj_table),
	LAYOUT("ERST", "Error Record Serialization Table", fw_acpi_erst_table),
	NAMED("FIDT", "Firmware ID Table (AMI)"),
	LAYOUT("FPDT", "Firmware Performance Data Table", fw_acpi_fpdt_table),
	LAYOUT("HEST", "Hardware Error Source Table", fw_acpi_hest_table),
	LAYOUT("HPET", "High Precision Event Timer Table", fw_acpi_hpet_table),
	NAMED("IORT", "I/O Remapping Table (Arm)"),
	NAMED("LPIT", "Low Power Idle Table"),
	LAYOUT("MSCT", "Maximum System Characteristics Table", fw_acpi_msct_table),
	NAMED("MSDM", "Microsoft Data Management Table"),
	NAMED("NFIT", "NVDIMM Firmware Interface Table"),
	NAMED("NHLT", "Non-HD Audio Link Table (Intel)"),
	NAMED("OEMB", "OEM Data Table (AMI)"),
	LAYOUT("PCCT", "Platform Communications Channel Table", fw_acpi_pcct_table),
	NAMED("PHAT", "Platform Health Assessment Table"),
	NAMED("PMTT", "Platform Memory Topology Table"),
	NAMED("PRMT", "Platform Runtime Mechanism Table"),
	LAYOUT("RASF", "RAS Feature Table", fw_acpi_rasf_table),
	NAMED("SBST", "Smart Battery Specification Table"),
	NAMED("SDEV", "Secure Devices Table"),
	NAMED("SLIC", "Software Licensing Description Table"),
	LAYOUT("SPCR", "Serial Port Console Redirection Table", fw_acpi_spcr_table),
	LAYOUT("SPMI", "Server Platform Management Interface Table", fw_acpi_spmi_table),
	NAMED("TCPA", "Trusted Computing Platform Alliance Table"),
	NAMED("TPM2", "Trusted Platform Module 2 Table"),
	LAYOUT("UEFI", "UEFI Boot Optimization Table", fw_acpi_uefi_table),
	NAMED("VFCT", "Video BIOS Fetch Table (AMD)"),
	NAMED("WAET", "Windows ACPI Emulated Devices Table"),
	NAMED("WDAT", "Watchdog Action Table"),
	NAMED("WDDT", "Watchdog Timer Description Table"),
	NAMED("WDRT", "Watchdog Resource Table"),
	NAMED("WPBT", "Windows Platform Binary Table"),
	LAYOUT("WSMT", "Windows SMM Security Mitigations Table", fw_acpi_wsmt_table),
};

const struct fw_acpi_decoder *fw_acpi_decoder_at(size_t i)
{
	return i < sizeof(decoders) / sizeof(decoders[0]) ? &decoders[i] : NULL;
}

const struct fw_acpi_decoder *fw_acpi_decoder_find(const char *signature)
{
	for (size_t i = 0; i < sizeof(decoders) / sizeof(decoders[0]); i++)
		if (strncmp(decoders[i].signature, signature, 4) == 0)
			return &decoders[i];
	return NULL;
}

void fw_acpi_table_decode(struct fw_acpi_table *t, struct fw_arena *a)
{
	t->decoder = fw_acpi_decoder_find(t->signature);
	t->model = NULL;
	t->doc = NULL;
	if (!t->decoder || (!t->decoder->decode && !t->decoder->layout))
		return;
	if (t->truncated) {
		fw_acpi_diag(t, a, FW_DIAG_INFO, 0, "not decoded: the table is truncated");
		return;
	}
	if (t->decoder->layout) {
		struct fw_diag *tail = t->diags_tail;
		unsigned count = t->diag_count;
		t->model = (void *)(t->doc = fw_acpi_fields_decode(t, t->decoder->layout, a));
		if (t->decoder->layout->hook_reports) {
			/* the hook reports what is malformed; the walk's words would say it twice */
			t->diags_tail = tail;
			t->diag_count = count;
			if (tail)
				tail->next = NULL;
			else
				t->diags = NULL;
		}
	}
	if (t->decoder->decode)
		t->model = t->decoder->decode(t, a);
}

const void *fw_acpi_table_model(const struct fw_acpi_table *t, enum fw_acpi_model_kind kind)
{
	if (!t->decoder || t->decoder->kind != kind)
		return NULL;
	return t->model;
}
