/* The parts of the sample builder and the variant they build (one BIOS version and the machine
 * snapshot taken with it). */
#ifndef SAMPLES_BUILD_H
#define SAMPLES_BUILD_H

#include "forms.h"
#include "sample.h"

struct sample_key;

/* Every FFS file the variant's image holds, for the module list of planted-changes.json */
struct module_record {
	struct fw_guid guid;
	int occurrence; /* the same GUID in PEI volumes A and B */
	const char *name;
	uint8_t hash[32];
};

struct variant {
	int version;               /* 1104 or 1201 */
	const char *bios_version;  /* "1104" */
	const char *bios_date;     /* "04/18/2025" (SMBIOS form) */
	const char *build_date;    /* "2025-04-18T10:12:55" */
	uint16_t year;
	uint8_t month, day, hour, minute, second;
	const char *agesa;         /* "TurinPI-SP5 1.0.0.4" */
	uint8_t sev_api_major, sev_api_minor, sev_build;
	uint32_t ucode_patch;      /* microcode patch level */
	const char *kernel;        /* kernel release of the snapshot */
	int nps;                   /* NUMA nodes per socket the snapshot was taken with (1 or 4) */
	struct formset setup, cbs;
	struct formset *extra;     /* a third forms module with its varstores (the hostile sample), or NULL */
	/* ACPI tables as iasl compiled them (NULL when iasl is missing) */
	uint8_t *dsdt, *ssdt1, *ssdt2;
	size_t dsdt_len, ssdt1_len, ssdt2_len;
	struct module_record modules[128];
	size_t nmodules;
	struct module_name {
		struct fw_guid guid;
		const char *name;
	} names[128];
	size_t nnames;
};

/* modules.c: record files (the fvb hook) and their names */
void module_seen(void *variant, const struct fw_guid *guid, const void *body, size_t n);
void module_named(struct variant *v, const struct fw_guid *guid, const char *name);

/* The ROM areas the capsule header lists (image offsets) */
struct rom_area {
	uint32_t offset, size, type, attributes;
};
struct rom_map {
	struct rom_area a[40];
	size_t n;
};
void rom_map_add(struct rom_map *m, uint32_t offset, uint32_t size, uint32_t type, uint32_t attributes);

/* forms-*.c */
void setup_define(struct formset *fs);
void cbs_define(struct formset *fs);
void variant_forms(struct variant *v);

/* modules.c: the firmware volumes (image offsets chosen by encode-image.c) */
uint8_t *build_main_volume(struct variant *v, size_t length, size_t *len);
uint8_t *build_pei_volume(struct variant *v, const struct sample_key *root, uint64_t base, size_t length, size_t *len,
			  size_t *fid_offset, size_t *fid_size);
uint8_t *build_nvram_volume(struct variant *v, size_t length, size_t *len);
uint8_t *build_logo_volume(struct variant *v, size_t length, size_t *len);

/* amdfw.c: EFS, PSP/BIOS directories and their blobs in the first 16 MiB */
void build_amd_region(struct variant *v, uint8_t *image, size_t image_size, uint32_t bios_image_offset,
		      uint32_t bios_image_size, struct rom_map *map);

/* encode-image.c / encode-capsule.c */
uint8_t *build_flash_image(struct variant *v, const struct sample_key *root, size_t *len, struct rom_map *map);
void write_capsule(struct variant *v, const uint8_t *image, size_t len, const struct rom_map *map,
		   const struct sample_key *signer, const struct sample_key *root, const char *rel);

/* encode-nvar.c: AMI NVAR stores */
uint8_t *nvar_defaults_store(struct variant *v, int which, size_t *len);
/* The NVAR store of the "NVRAM external defaults" file (StdDefaults and MfgDefaults) */
uint8_t *nvar_external_defaults(struct variant *v, size_t *len);

/* acpi.c / asl.c / sysroot.c */
struct topology;
const struct topology *topology_for(const struct variant *v);
void build_acpi_asl(struct variant *v);
/* The machine's state: the reference host (faults between host GPUs under a translating IOMMU),
 * or the same host after its host GPUs' groups were switched to identity (FSP boot failures). */
enum sysroot_story { STORY_REFERENCE, STORY_IDENTITY };
void write_sysroot(struct variant *v, const char *rel, enum sysroot_story story);
/* An SEV-SNP guest of the reference host, with the four passed-through GPUs. */
void write_guest_sysroot(struct variant *v, const char *rel);
/* An efivarfs file (attributes, then the data) under sys/firmware/efi/efivars of the output root */
void efivar(const char *name, const struct fw_guid *g, uint32_t attributes, const void *data, size_t n);

/* hostile.c: the hostile forms module, and the machine whose strings are hostile too */
void hostile_forms(struct variant *v);
void write_hostile_sysroot(struct variant *v, const char *rel);

/* encode-dense.c: the dense bench images, one volume of `mib` MiB packed with compressed drivers */
enum dense_kind { DENSE_LZMA, DENSE_ZLIB };
struct dense_stats {
	size_t files;      /* driver files in the volume */
	uint64_t inflated; /* bytes of their compressed sections once inflated */
};
uint8_t *build_dense_image(enum dense_kind kind, size_t mib, size_t *len, struct dense_stats *st);

/* module identities shared by the volumes and planted-changes.json */
extern const char *const module_names_1104_only[];
extern const char *const module_names_1201_only[];

#endif
