/* ACPI data tables of the sample machine (acpi.c). */
#ifndef SAMPLES_ACPI_H
#define SAMPLES_ACPI_H

#include "sample.h"
#include "topology.h"

#define ACPI_DATA_TABLES 8
#define ACPI_ECAM_BASE 0xE0000000u
/* Where the firmware placed the tables the FADT points at (also in the kernel log) */
#define ACPI_DSDT_ADDRESS 0x6A3C2000u
#define ACPI_FACS_ADDRESS 0x6A5FE000u

struct acpi_table {
	const char *signature; /* the sysfs file name */
	uint8_t *data;
	size_t len;
};
/* APIC, FACP, FACS, HPET, IVRS, MCFG, SLIT, SRAT; the caller frees each data */
void acpi_tables(const struct topology *t, struct acpi_table out[ACPI_DATA_TABLES]);
uint64_t acpi_iommu_efr(void);
uint64_t acpi_iommu_efr2(void);
uint8_t acpi_slit_distance(const struct topology *t, int a, int b);

#endif
