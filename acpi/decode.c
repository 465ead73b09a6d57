/* The signature dispatch table (see acpi/decode.h for how to add a decoder). */
#include "decode.h"

#include <string.h>

#include "acpi/cedt.h"
#include "acpi/dmar.h"
#include "acpi/fadt.h"
#include "acpi/hmat.h"
#include "acpi/ivrs.h"
#include "acpi/madt.h"
#include "acpi/mcfg.h"
#include "acpi/rsdp.h"
#include "acpi/slit.h"
#include "acpi/srat.h"
#include "acpi/xsdt.h"

static const struct fw_acpi_decoder decoders[] = {
	{"RSDP", "Root System Description Pointer", FW_ACPI_MODEL_RSDP, fw_acpi_rsdp_decode},
	{"XSDT", "Extended System Description Table", FW_ACPI_MODEL_XSDT, fw_acpi_xsdt_decode},
	{"RSDT", "Root System Description Table", FW_ACPI_MODEL_XSDT, fw_acpi_xsdt_decode},
	{"IVRS", "I/O Virtualization Reporting Structure (AMD IOMMU)", FW_ACPI_MODEL_IVRS, fw_acpi_ivrs_decode},
	{"SRAT", "System Resource Affinity Table", FW_ACPI_MODEL_SRAT, fw_acpi_srat_decode},
	{"SLIT", "System Locality Distance Information Table", FW_ACPI_MODEL_SLIT, fw_acpi_slit_decode},
	{"MCFG", "PCI Express Memory-mapped Configuration", FW_ACPI_MODEL_MCFG, fw_acpi_mcfg_decode},
	{"DMAR", "DMA Remapping Table (Intel VT-d)", FW_ACPI_MODEL_DMAR, fw_acpi_dmar_decode},
	{"APIC", "Multiple APIC Description Table (MADT)", FW_ACPI_MODEL_MADT, fw_acpi_madt_decode},
	{"FACP", "Fixed ACPI Description Table (FADT)", FW_ACPI_MODEL_FADT, fw_acpi_fadt_decode},
	{"HMAT", "Heterogeneous Memory Attribute Table", FW_ACPI_MODEL_HMAT, fw_acpi_hmat_decode},
	{"CEDT", "CXL Early Discovery Table", FW_ACPI_MODEL_CEDT, fw_acpi_cedt_decode},
	{"FACS", "Firmware ACPI Control Structure (no checksum)", FW_ACPI_MODEL_NONE, NULL},
	/* Listed by name only; their bytes are left alone. */
	{"DSDT", "Differentiated System Description Table (AML)", FW_ACPI_MODEL_NONE, NULL},
	{"SSDT", "Secondary System Description Table (AML)", FW_ACPI_MODEL_NONE, NULL},
	{"ASF!", "Alert Standard Format Table", FW_ACPI_MODEL_NONE, NULL},
	{"ASPT", "AMD Secure Processor Table", FW_ACPI_MODEL_NONE, NULL},
	{"BDAT", "BIOS Data ACPI Table", FW_ACPI_MODEL_NONE, NULL},
	{"BERT", "Boot Error Record Table", FW_ACPI_MODEL_NONE, NULL},
	{"BGRT", "Boot Graphics Resource Table", FW_ACPI_MODEL_NONE, NULL},
	{"BOOT", "Simple Boot Flag Table", FW_ACPI_MODEL_NONE, NULL},
	{"CDIT", "Component Distance Information Table (AMD)", FW_ACPI_MODEL_NONE, NULL},
	{"CRAT", "Component Resource Attribute Table (AMD)", FW_ACPI_MODEL_NONE, NULL},
	{"CSRT", "Core System Resource Table", FW_ACPI_MODEL_NONE, NULL},
	{"DBG2", "Debug Port Table 2", FW_ACPI_MODEL_NONE, NULL},
	{"DBGP", "Debug Port Table", FW_ACPI_MODEL_NONE, NULL},
	{"ECDT", "Embedded Controller Boot Resources Table", FW_ACPI_MODEL_NONE, NULL},
	{"EINJ", "Error Injection Table", FW_ACPI_MODEL_NONE, NULL},
	{"ERST", "Error Record Serialization Table", FW_ACPI_MODEL_NONE, NULL},
	{"FIDT", "Firmware ID Table (AMI)", FW_ACPI_MODEL_NONE, NULL},
	{"FPDT", "Firmware Performance Data Table", FW_ACPI_MODEL_NONE, NULL},
	{"HEST", "Hardware Error Source Table", FW_ACPI_MODEL_NONE, NULL},
	{"HPET", "High Precision Event Timer Table", FW_ACPI_MODEL_NONE, NULL},
	{"IORT", "I/O Remapping Table (Arm)", FW_ACPI_MODEL_NONE, NULL},
	{"LPIT", "Low Power Idle Table", FW_ACPI_MODEL_NONE, NULL},
	{"MSCT", "Maximum System Characteristics Table", FW_ACPI_MODEL_NONE, NULL},
	{"MSDM", "Microsoft Data Management Table", FW_ACPI_MODEL_NONE, NULL},
	{"NFIT", "NVDIMM Firmware Interface Table", FW_ACPI_MODEL_NONE, NULL},
	{"NHLT", "Non-HD Audio Link Table (Intel)", FW_ACPI_MODEL_NONE, NULL},
	{"OEMB", "OEM Data Table (AMI)", FW_ACPI_MODEL_NONE, NULL},
	{"PCCT", "Platform Communications Channel Table", FW_ACPI_MODEL_NONE, NULL},
	{"PHAT", "Platform Health Assessment Table", FW_ACPI_MODEL_NONE, NULL},
	{"PMTT", "Platform Memory Topology Table", FW_ACPI_MODEL_NONE, NULL},
	{"PPTT", "Processor Properties Topology Table", FW_ACPI_MODEL_NONE, NULL},
	{"PRMT", "Platform Runtime Mechanism Table", FW_ACPI_MODEL_NONE, NULL},
	{"RASF", "RAS Feature Table", FW_ACPI_MODEL_NONE, NULL},
	{"SBST", "Smart Battery Specification Table", FW_ACPI_MODEL_NONE, NULL},
	{"SDEV", "Secure Devices Table", FW_ACPI_MODEL_NONE, NULL},
	{"SLIC", "Software Licensing Description Table", FW_ACPI_MODEL_NONE, NULL},
	{"SPCR", "Serial Port Console Redirection Table", FW_ACPI_MODEL_NONE, NULL},
	{"SPMI", "Server Platform Management Interface Table", FW_ACPI_MODEL_NONE, NULL},
	{"TCPA", "Trusted Computing Platform Alliance Table", FW_ACPI_MODEL_NONE, NULL},
	{"TPM2", "Trusted Platform Module 2 Table", FW_ACPI_MODEL_NONE, NULL},
	{"UEFI", "UEFI Boot Optimization Table", FW_ACPI_MODEL_NONE, NULL},
	{"VFCT", "Video BIOS Fetch Table (AMD)", FW_ACPI_MODEL_NONE, NULL},
	{"WAET", "Windows ACPI Emulated Devices Table", FW_ACPI_MODEL_NONE, NULL},
	{"WDAT", "Watchdog Action Table", FW_ACPI_MODEL_NONE, NULL},
	{"WDDT", "Watchdog Timer Description Table", FW_ACPI_MODEL_NONE, NULL},
	{"WDRT", "Watchdog Resource Table", FW_ACPI_MODEL_NONE, NULL},
	{"WPBT", "Windows Platform Binary Table", FW_ACPI_MODEL_NONE, NULL},
	{"WSMT", "Windows SMM Security Mitigations Table", FW_ACPI_MODEL_NONE, NULL},
};

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
	if (!t->decoder || !t->decoder->decode)
		return;
	if (t->truncated) {
		fw_acpi_diag(t, a, FW_DIAG_INFO, 0, "not decoded: the table is truncated");
		return;
	}
	t->model = t->decoder->decode(t, a);
}

const void *fw_acpi_table_model(const struct fw_acpi_table *t, enum fw_acpi_model_kind kind)
{
	if (!t->decoder || t->decoder->kind != kind)
		return NULL;
	return t->model;
}
