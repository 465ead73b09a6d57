/* The firmware volumes of the sample images and the modules in them.
 *
 * Structure after the ASUS WRX90E 1203 image of the corpus (corpus/firmware/WRX90E-REBUILT.md):
 * a top-level FFSv3 volume whose volume-image file holds the main DXE volume inside an LZMA
 * GUID-defined section; two copies of a 2 MiB FFSv2 PEI volume at the top of the flash with the
 * platform key file, the $FID version file, PEI modules (TE), a volume compressed with AMD's zlib
 * section (CE3233F5) and the Volume Top File; the NVRAM volume (encode-nvar.c). Modules carry UI
 * sections where the brief asks for names (Setup, CbsSetupDxeBRH, AMITSE, ...); plain drivers
 * have none, as most real modules. */
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "capsule/ami-fid.h"
#include "encoders.h"
#include "ifr/ifr-opcodes.h"
#include "parsers/ffs.h"
#include "parsers/hash.h"
#include "parsers/pe.h"
#include "parsers/section.h"
#include "planted.h"
#include "sign.h"

/* Volume names as the ASUS images use them */
static const char *const FV_MAIN = "4F1C52D3-D824-4D2A-A2F0-EC40C23C5916";
static const char *const FV_DXE = "5C60F367-A505-419A-859E-2A4FF6CA6FE5";
static const char *const FV_PEI = "61C0F511-A691-4F54-974F-B9A42172CE53";
static const char *const FV_PEI_ZLIB = "44A2D731-D551-4594-93B4-BD2B60351E0E";

/* File GUIDs with public names (parsers/guid-names.def) */
static const char *const FILE_SETUP = "899407D7-99FE-43D8-9A21-79EC328CAC21";
static const char *const FILE_AMITSE = "B1DA0ADF-4F77-4070-A88E-BFFE1C60529A";
static const char *const FILE_DXE_CORE = "5AE3F37E-4EAE-41AE-8240-35465B5E81EB";
static const char *const FILE_DXE_APRIORI = "FC510EE7-FFDC-11D4-BD41-0080C73C8881";
static const char *const FILE_PEI_APRIORI = "1B45CC0A-156A-428A-AF62-49864DA0E6E6";
static const char *const FILE_FWKEY = "3FEEC852-F14C-4E7F-97FD-4C3A8C5BBECC"; /* AMI PR_KEY_FFS_FILE_RAW_GUID */
static const char *const SECTION_FID = "2EBE0275-6458-4AF9-91ED-D3F4EDB100AA";

/* Protocol GUIDs for dependency expressions (edk2 MdePkg.dec) */
static const char *const PROTO_HII_DATABASE = "EF9FC172-A1B2-4693-B327-6D32FC416042";
static const char *const PROTO_VARIABLE = "1E5668E2-8481-11D4-BCF1-0080C73C8881";
static const char *const PROTO_PCI_ROOT_BRIDGE_IO = "2F707EBB-4A1A-11D4-9A38-0090273FC14D";
static const char *const PPI_READ_ONLY_VARIABLE2 = "2AB86EF5-ECB5-4134-B556-3854CA1FE1B4";

const char *const module_names_1104_only[] = {"CsmDxe", NULL};
const char *const module_names_1201_only[] = {"AmdSevTioDxe", NULL};

static struct fw_guid G(const char *s) { return sample_guid(s); }

void module_named(struct variant *v, const struct fw_guid *guid, const char *name)
{
	for (size_t i = 0; i < v->nnames; i++)
		if (fw_guid_eq(&v->names[i].guid, guid))
			return;
	SAMPLE_ASSERT(v->nnames < ARRAY_LEN(v->names));
	v->names[v->nnames++] = (struct module_name){*guid, name};
}

void module_seen(void *variant, const struct fw_guid *guid, const void *body, size_t n)
{
	struct variant *v = variant;
	SAMPLE_ASSERT(v->nmodules < ARRAY_LEN(v->modules));
	struct module_record *r = &v->modules[v->nmodules];
	memset(r, 0, sizeof(*r));
	r->guid = *guid;
	for (size_t i = 0; i < v->nmodules; i++)
		if (fw_guid_eq(&v->modules[i].guid, guid))
			r->occurrence++;
	for (size_t i = 0; i < v->nnames; i++)
		if (fw_guid_eq(&v->names[i].guid, guid))
			r->name = v->names[i].name;
	if (!r->name) {
		const char *known = fw_guid_name(guid);
		char g[FW_GUID_STR_LEN];
		r->name = known ? known : sample_strdup(fw_guid_format(guid, g));
	}
	fw_sha256(body, n, r->hash);
	v->nmodules++;
}

/* ---- module bodies ---- */

/* A DXE driver file: dependency, PE32 (with an HII package list when given), UI, version. */
static void add_dxe_driver(struct variant *v, struct fvb *fv, const struct fw_guid *name, const char *ui, const char *label,
			   size_t code_len,
			   const uint8_t *hii, size_t hii_len, const struct sbuf *data, const char *const *deps,
			   uint8_t type)
{
	struct sbuf code = {0}, secs = {0};
	fake_code(&code, label, code_len);
	size_t pe_len;
	uint8_t *pe = pe_build(FW_PE_SUBSYSTEM_EFI_BOOT_SERVICE_DRIVER, code.p, code.len, data ? data->p : NULL,
			       data ? data->len : 0, hii, hii_len, &pe_len);
	struct fw_guid dep[4];
	size_t ndep = 0;
	for (; deps && deps[ndep] && ndep < ARRAY_LEN(dep); ndep++)
		dep[ndep] = G(deps[ndep]);
	if (type != FW_FFS_TYPE_DXE_CORE)
		sec_depex(&secs, FW_SECTION_DXE_DEPEX, dep, ndep);
	sec_plain(&secs, FW_SECTION_PE32, pe, pe_len);
	if (ui)
		sec_ui(&secs, ui);
	sec_version(&secs, 0, "1.0");
	module_named(v, name, label);
	fv_add_file(fv, name, type, 0, secs.p, secs.len);
	free(pe);
	sb_free(&code);
	sb_free(&secs);
}

/* The HII package list of a formset module: the form package, then the string packages. */
static uint8_t *formset_package_list(struct formset *fs, const struct fw_guid *list_guid, const int *langs, size_t nlangs,
				     size_t *len)
{
	struct sbuf pk = {0};
	hii_form_package(&pk, &fs->ifr.b);
	str_packages(&fs->st, langs, nlangs, &pk);
	uint8_t *list = hii_package_list(list_guid, &pk, len);
	sb_free(&pk);
	return list;
}

/* AMITSE carries only string packages: the browser's own texts. */
static uint8_t *amitse_package_list(struct variant *v, size_t *len)
{
	static const char *const texts[] = {
		"Aptio Setup - AMI", "Save Changes and Exit", "Discard Changes and Exit", "Save Changes and Reset",
		"Discard Changes and Reset", "Save Options", "Restore Defaults", "Save as User Defaults",
		"Restore User Defaults", "Boot Override", "Enter Setup", "Press <DEL> or <F2> to enter setup.",
		"Load Optimized Defaults?", "Save configuration and reset?", "Enabled", "Disabled", "Setup",
		"Main", "Advanced", "Boot", "Security", "Exit",
	};
	struct strtab st = {0};
	for (size_t i = 0; i < ARRAY_LEN(texts); i++)
		str_id(&st, texts[i]);
	str_id(&st, sample_printf("Version 2.22.1289. Copyright (C) 2025 AMI, BIOS %s", v->bios_version));
	str_translate(&st);
	static const int langs[] = {LANG_EN, LANG_FR, LANG_ZH};
	struct sbuf pk = {0};
	str_packages(&st, langs, ARRAY_LEN(langs), &pk);
	struct fw_guid g = sample_guid(FILE_AMITSE);
	uint8_t *list = hii_package_list(&g, &pk, len);
	sb_free(&pk);
	str_free(&st);
	return list;
}

/* SMBIOS type 0 (BIOS Information) as a static table carries it: the strings a DMI reader shows. */
static void smbios_type0(struct variant *v, struct sbuf *b)
{
	size_t h = sb_put(b, NULL, 0x1A);
	uint8_t *p = sb_at(b, h);
	p[0] = 0;    /* type */
	p[1] = 0x1A; /* length */
	p[4] = 1;    /* vendor string */
	p[5] = 2;    /* version string */
	p[6] = 0x00;
	p[7] = 0xF0; /* starting segment F000 */
	p[8] = 3;    /* release date string */
	p[9] = 0xFF; /* ROM size: extended */
	p[0x14] = (uint8_t)(v->version / 100);
	p[0x15] = (uint8_t)(v->version % 100);
	p[0x18] = 32; /* extended ROM size: 32 MiB */
	sb_put_ascii(b, "American Megatrends International, LLC.");
	sb_put_ascii(b, v->bios_version);
	sb_put_ascii(b, v->bios_date);
	sb_put8(b, 0);
}

static void add_raw_file(struct variant *v, struct fvb *fv, const struct fw_guid *name, const char *label, const void *data,
			 size_t n)
{
	struct sbuf secs = {0};
	sec_plain(&secs, FW_SECTION_RAW, data, n);
	module_named(v, name, label);
	fv_add_file(fv, name, FW_FFS_TYPE_FREEFORM, 0, secs.p, secs.len);
	sb_free(&secs);
}

static uint8_t *build_dxe_volume(struct variant *v, size_t *len)
{
	struct fvb fv;
	struct fw_guid fvname = G(FV_DXE);
	fv_begin(&fv, &guid_ffs2, &fvname, 0x200000);
	fv.on_file = module_seen;
	fv.ctx = v;

	/* DXE apriori list: the drivers dispatched first */
	struct sbuf apriori = {0};
	struct fw_guid first[] = {sample_guid_named("AmdPspDxeV2BRH"), sample_guid_named("AmdNbioIommuDxe")};
	for (size_t i = 0; i < ARRAY_LEN(first); i++)
		sb_put_guid(&apriori, &first[i]);
	struct fw_guid g = G(FILE_DXE_APRIORI);
	add_raw_file(v, &fv, &g, "apriori file", apriori.p, apriori.len);
	sb_free(&apriori);

	g = G(FILE_DXE_CORE);
	add_dxe_driver(v, &fv, &g, NULL, "DxeCore", 0x1800, NULL, 0, NULL, NULL, FW_FFS_TYPE_DXE_CORE);

	static const char *const hii_deps[] = {PROTO_HII_DATABASE, PROTO_VARIABLE, NULL};
	static const int setup_langs[] = {LANG_EN, LANG_FR, LANG_ZH, LANG_CONFIG};
	static const int cbs_langs[] = {LANG_EN, LANG_CONFIG};
	size_t hii_len;
	struct fw_guid setup_guid = G(FILE_SETUP);
	uint8_t *hii = formset_package_list(&v->setup, &setup_guid, setup_langs, ARRAY_LEN(setup_langs), &hii_len);
	add_dxe_driver(v, &fv, &setup_guid, "Setup", "Setup", 0x3000, hii, hii_len, NULL, hii_deps, FW_FFS_TYPE_DRIVER);
	free(hii);

	struct fw_guid cbs_module = sample_guid_named("CbsSetupDxeBRH module");
	struct fw_guid cbs_list = sample_guid_named("CbsSetupDxeBRH package list");
	hii = formset_package_list(&v->cbs, &cbs_list, cbs_langs, ARRAY_LEN(cbs_langs), &hii_len);
	add_dxe_driver(v, &fv, &cbs_module, "CbsSetupDxeBRH", "CbsSetupDxeBRH", 0x2400, hii, hii_len, NULL, hii_deps,
		       FW_FFS_TYPE_DRIVER);
	free(hii);

	if (v->extra) {
		struct fw_guid em = sample_guid_named("extra forms module");
		struct fw_guid el = sample_guid_named("extra forms package list");
		hii = formset_package_list(v->extra, &el, cbs_langs, ARRAY_LEN(cbs_langs), &hii_len);
		add_dxe_driver(v, &fv, &em, v->extra->module, "extra forms module", 0x800, hii, hii_len, NULL, hii_deps,
			       FW_FFS_TYPE_DRIVER);
		free(hii);
	}

	g = G(FILE_AMITSE);
	hii = amitse_package_list(v, &hii_len);
	add_dxe_driver(v, &fv, &g, "AMITSE", "AMITSE", 0x2000, hii, hii_len, NULL, hii_deps, FW_FFS_TYPE_DRIVER);
	free(hii);

	/* plain drivers: no UI section, as most real modules */
	static const char *const pci_deps[] = {PROTO_PCI_ROOT_BRIDGE_IO, NULL};
	static const char *const plain[] = {"AmdPspDxeV2BRH", "AmdNbioIommuDxe", "AmdApcbDxeV3", "AmdSmbiosDxe"};
	for (size_t i = 0; i < ARRAY_LEN(plain); i++) {
		struct fw_guid pg = sample_guid_named(plain[i]);
		struct sbuf data = {0};
		if (strcmp(plain[i], "AmdNbioIommuDxe") == 0)
			sb_put_ascii(&data, "IVRS");
		/* the AGESA version string lives in the AGESA drivers, found by a raw scan */
		if (strcmp(plain[i], "AmdPspDxeV2BRH") == 0) {
			sb_put(&data, "AGESA!V9", 9);
			sb_put_ascii(&data, v->agesa);
		}
		/* two of them carry a UI section; most real modules do not */
		const char *ui = (i == 1 || i == 2) ? plain[i] : NULL;
		add_dxe_driver(v, &fv, &pg, ui, plain[i], 0x600 + 0x100 * i, NULL, 0, data.len ? &data : NULL,
			       i == 1 ? pci_deps : NULL, FW_FFS_TYPE_DRIVER);
		sb_free(&data);
	}
	if (v->version < 1201) {
		struct fw_guid cg = sample_guid_named("CsmDxe");
		add_dxe_driver(v, &fv, &cg, "CsmDxe", "CsmDxe", 0x1200, NULL, 0, NULL, pci_deps, FW_FFS_TYPE_DRIVER);
	} else {
		struct fw_guid tg = sample_guid_named("AmdSevTioDxe");
		add_dxe_driver(v, &fv, &tg, "AmdSevTioDxe", "AmdSevTioDxe", 0x900, NULL, 0, NULL, pci_deps, FW_FFS_TYPE_DRIVER);
	}

	/* "NVRAM external defaults": the default stores again, LZMA-compressed, in a raw section */
	size_t ext_len;
	uint8_t *ext = nvar_external_defaults(v, &ext_len);
	struct sbuf raw = {0}, secs = {0};
	sec_plain(&raw, FW_SECTION_RAW, ext, ext_len);
	sec_lzma(&secs, raw.p, raw.len);
	free(ext);
	sb_free(&raw);
	struct fw_guid eg = sample_guid("9221315B-30BB-46B5-813E-1B1BF4712BD3");
	module_named(v, &eg, "NVRAM external defaults");
	fv_add_file(&fv, &eg, FW_FFS_TYPE_FREEFORM, 0, secs.p, secs.len);
	sb_free(&secs);

	/* SMBIOS static data with the BIOS version and date strings */
	struct sbuf smbios = {0};
	smbios_type0(v, &smbios);
	struct fw_guid sg = sample_guid_named("SmbiosStaticData");
	add_raw_file(v, &fv, &sg, "SmbiosStaticData", smbios.p, smbios.len);
	sb_free(&smbios);

	/* ACPI tables as AMI images carry them: a freeform file with one raw section per table */
	if (v->dsdt) {
		struct fw_guid dg = sample_guid_named("DSDT");
		add_raw_file(v, &fv, &dg, "DSDT", v->dsdt, v->dsdt_len);
		struct fw_guid s2 = sample_guid_named("SSDT CPMCPU");
		add_raw_file(v, &fv, &s2, "SSDT CPMCPU", v->ssdt2, v->ssdt2_len);
	}
	return fv_finish(&fv, len);
}

uint8_t *build_main_volume(struct variant *v, size_t length, size_t *len)
{
	size_t dxe_len;
	uint8_t *dxe = build_dxe_volume(v, &dxe_len);
	struct sbuf inner = {0};
	sec_fv_image(&inner, dxe, dxe_len);
	free(dxe);
	struct sbuf secs = {0};
	sec_lzma(&secs, inner.p, inner.len);
	sb_free(&inner);

	struct fvb fv;
	struct fw_guid fvname = G(FV_MAIN);
	fv_begin(&fv, &guid_ffs3, &fvname, length);
	fv.on_file = module_seen;
	fv.ctx = v;
	struct fw_guid file = G("9E21FD93-9C72-4C15-8C4B-E77F1DB2D792");
	module_named(v, &file, "DXE volume file");
	fv_add_file(&fv, &file, FW_FFS_TYPE_FIRMWARE_VOLUME_IMAGE, 0, secs.p, secs.len);
	sb_free(&secs);
	return fv_finish(&fv, len);
}

/* ---- PEI volume ---- */

/* A PEI module; fv_base is the flash address of the volume when the module runs in place (the TE
 * image is linked at its own address, so the two PEI copies differ in those bytes), else 0. */
static void add_peim(struct variant *v, struct fvb *fv, uint64_t fv_base, const struct fw_guid *name, const char *label, const char *ui,
		     size_t code_len, const struct sbuf *data, uint8_t type)
{
	struct sbuf code = {0}, secs = {0};
	fake_code(&code, label, code_len);
	if (type == FW_FFS_TYPE_PEIM) {
		struct fw_guid dep = G(PPI_READ_ONLY_VARIABLE2);
		sec_depex(&secs, FW_SECTION_PEI_DEPEX, &dep, 1);
	}
	size_t te_at = align_up(fv->b.len, 8) + FW_FFS_HEADER_SIZE + align_up(secs.len, 4) + FW_SECTION_HEADER_SIZE;
	size_t te_len;
	uint8_t *te = te_build(code.p, code.len, data ? data->p : NULL, data ? data->len : 0, fv_base ? fv_base + te_at : 0,
			       &te_len);
	sec_plain(&secs, FW_SECTION_TE, te, te_len);
	if (ui)
		sec_ui(&secs, ui);
	sec_version(&secs, 0, "1.0");
	module_named(v, name, ui ? ui : label);
	fv_add_file(fv, name, type, 0, secs.p, secs.len);
	free(te);
	sb_free(&code);
	sb_free(&secs);
}

static uint8_t *build_agesa_pei_volume(struct variant *v, size_t *len)
{
	struct fvb fv;
	struct fw_guid name = G(FV_PEI_ZLIB);
	fv_begin(&fv, &guid_ffs2, &name, 0x40000);
	fv.on_file = module_seen;
	fv.ctx = v;
	static const char *const peims[] = {"AmdCpmInitPeim", "AmdNbioPeiBRH", "AmdPspPeiV2BRH", "AmdMemSp5Pei",
					    "AmdFabricPeiBRH", "AmdCcxZen5Pei"};
	for (size_t i = 0; i < ARRAY_LEN(peims); i++) {
		struct fw_guid g = sample_guid_named(peims[i]);
		module_named(v, &g, peims[i]);
		struct sbuf data = {0};
		sb_printf(&data, "%s %s", peims[i], v->agesa);
		sb_put8(&data, 0);
		add_peim(v, &fv, 0, &g, sample_printf("%s %d", peims[i], v->version), NULL, 0x800 + 0x200 * i, &data, FW_FFS_TYPE_PEIM);
		sb_free(&data);
	}
	return fv_finish(&fv, len);
}

/* The $FID structure: version strings of the BIOS, then an unsigned tail (its length first). */
static void fid_body(struct variant *v, struct sbuf *b)
{
	size_t o = sb_put(b, NULL, FW_AMI_FID_SIZE);
	uint8_t *p = sb_at(b, o);
	const struct fw_layout *l = &fw_ami_fid_layout;
	fw_layout_put_bytes(l, p, FID_SIGNATURE, FW_AMI_FID_SIGNATURE, 4);
	fw_layout_put(l, p, FID_STRUCT_VERSION, 4);
	fw_layout_put(l, p, FID_SIZE, 0x78);
	fw_layout_put_bytes(l, p, FID_BIOS_TAG, "K15PGD24", 8);
	struct fw_guid fg = sample_guid_named("K15PG-D24 firmware");
	fw_layout_put_guid(l, p, FID_FIRMWARE_GUID, &fg);
	fw_layout_put_bytes(l, p, FID_CORE_MAJOR, "05", 3);
	fw_layout_put_bytes(l, p, FID_CORE_MINOR, "37", 3);
	char major[3] = {(char)('0' + v->version / 1000), (char)('0' + v->version / 100 % 10), 0};
	char minor[3] = {(char)('0' + v->version / 10 % 10), (char)('0' + v->version % 10), 0};
	fw_layout_put_bytes(l, p, FID_PROJECT_MAJOR, major, 3);
	fw_layout_put_bytes(l, p, FID_PROJECT_MINOR, minor, 3);
	fw_layout_put(l, p, FID_YEAR, v->year);
	fw_layout_put(l, p, FID_MONTH, v->month);
	fw_layout_put(l, p, FID_DAY, v->day);
	fw_layout_put(l, p, FID_HOUR, v->hour);
	fw_layout_put(l, p, FID_MINUTE, v->minute);
	fw_layout_put(l, p, FID_SECOND, v->second);
	fw_layout_put(l, p, FID_SIGN_ON_STRING, 0xFFFF);
	fw_layout_put_bytes(l, p, FID_OEM_ID, "ALASKA", 6);
	fw_layout_put_bytes(l, p, FID_OEM_TABLE_ID, "A M I \0\0", 8);
	sb_put32(b, 0x31);
	sb_fill(b, 0xFF, 0x31);
}

uint8_t *build_pei_volume(struct variant *v, const struct sample_key *root, uint64_t base, size_t length, size_t *len,
			  size_t *fid_offset, size_t *fid_size)
{
	struct fvb fv;
	struct fw_guid name = G(FV_PEI);
	fv_begin(&fv, &guid_ffs2, &name, length);
	fv.on_file = module_seen;
	fv.ctx = v;

	/* the platform root key: the RSA-2048 modulus the capsule's RootCert must match */
	uint8_t modulus[256];
	key_modulus(root, modulus);
	struct fw_guid g = G(FILE_FWKEY);
	add_raw_file(v, &fv, &g, "FWKEY", modulus, sizeof(modulus));

	/* $FID in a freeform-subtype-GUID section */
	struct sbuf fid = {0}, secs = {0};
	fid_body(v, &fid);
	struct fw_guid sub = G(SECTION_FID);
	sec_freeform(&secs, &sub, fid.p, fid.len);
	g = sample_guid_named("FidFile");
	module_named(v, &g, "$FID file");
	size_t file = fv_add_file(&fv, &g, FW_FFS_TYPE_FREEFORM, 0, secs.p, secs.len);
	/* offset of the unsigned tail: file header, section header, subtype GUID, 67 + 4 bytes */
	*fid_offset = file + FW_FFS_HEADER_SIZE + FW_SECTION_HEADER_SIZE + 16 + FW_AMI_FID_SIZE + 4;
	*fid_size = 0x31;
	sb_free(&fid);
	sb_free(&secs);

	struct sbuf apriori = {0};
	struct fw_guid first = sample_guid_named("AmdPlatformPei");
	sb_put_guid(&apriori, &first);
	g = G(FILE_PEI_APRIORI);
	add_raw_file(v, &fv, &g, "apriori file", apriori.p, apriori.len);
	sb_free(&apriori);

	g = sample_guid_named("PeiCore");
	add_peim(v, &fv, base, &g, "PeiCore", NULL, 0xC00, NULL, FW_FFS_TYPE_PEI_CORE);
	struct sbuf data = {0};
	sb_put(&data, "AGESA!V9", 9);
	sb_put_ascii(&data, v->agesa);
	add_peim(v, &fv, base, &first, "AmdPlatformPei", "AmdPlatformPei", 0x900, &data, FW_FFS_TYPE_PEIM);
	sb_free(&data);

	/* AGESA PEI modules in a volume compressed with AMD's zlib GUID-defined section */
	size_t inner_len;
	uint8_t *inner = build_agesa_pei_volume(v, &inner_len);
	struct sbuf isecs = {0};
	sec_fv_image(&isecs, inner, inner_len);
	free(inner);
	struct sbuf zsecs = {0};
	sec_amd_zlib(&zsecs, isecs.p, isecs.len);
	sb_free(&isecs);
	g = sample_guid_named("AmdAgesaPeiVolume");
	module_named(v, &g, "AGESA PEI volume file");
	fv_add_file(&fv, &g, FW_FFS_TYPE_FIRMWARE_VOLUME_IMAGE, 0, zsecs.p, zsecs.len);
	sb_free(&zsecs);

	/* SEC core: the Volume Top File, ending at the top of the volume with the reset vector */
	struct sbuf vtf = {0};
	struct sbuf sec = {0};
	fake_code(&sec, "SecCore", 0x3EC); /* file size a multiple of 8: the VTF ends the volume */
	sb_fill(&sec, 0x90, 0x10);
	/* 0xFFFFFFF0: jmp near to the SEC entry below, then padding */
	static const uint8_t reset[] = {0x90, 0x90, 0xE9, 0x0B, 0xFC, 0x00, 0x00};
	memcpy(sb_at(&sec, sec.len - 0x10), reset, sizeof(reset));
	sec_plain(&vtf, FW_SECTION_RAW, sec.p, sec.len);
	module_named(v, &guid_vtf, "SecCore (Volume Top File)");
	fv_add_top_file(&fv, &guid_vtf, FW_FFS_TYPE_SECURITY_CORE, vtf.p, vtf.len);
	sb_free(&sec);
	sb_free(&vtf);
	return fv_finish(&fv, len);
}
