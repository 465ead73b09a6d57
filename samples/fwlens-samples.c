/* fwlens-samples: builds the synthetic ESC8000A-E13 (K15PG-D24) BIOS 1104 and 1201 capsules, the
 * machine snapshots taken with them and the list of planted differences.
 *
 *   fwlens-samples --out DIR
 *   fwlens-samples --dense lzma|zlib [--mib N] --out DIR
 *
 * Outputs (DIR): ESC8000A-E13-ASUS-1104.CAP, ESC8000A-E13-ASUS-1201.CAP, sysroot-1104/,
 * sysroot-1201/, ESC8000A-E13-HOSTILE.CAP, sysroot-hostile/ (hostile.c), planted-changes.json,
 * test-signing-key.pem and .pub.pem, test-root-key.pem and .pub.pem, asl/ (the ASL sources and
 * what iasl made of them). With --dense, only DIR/DENSE-LZMA-128M.FD (or -ZLIB-, and N for 128):
 * the dense bench image of encode-dense.c. See samples/README.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "build.h"
#include "planted.h"
#include "sign.h"

static void init_variant(struct variant *v, int version)
{
	memset(v, 0, sizeof(*v));
	v->version = version;
	if (version < 1201) {
		v->bios_version = "1104";
		v->bios_date = "04/18/2025";
		v->year = 2025, v->month = 4, v->day = 18, v->hour = 10, v->minute = 12, v->second = 55;
		v->agesa = "TurinPI-SP5 1.0.0.4";
		v->sev_build = 21;
		v->ucode_patch = 0x0B00214B;
		v->kernel = "6.14.8-2-pve";
		v->nps = 1;
	} else {
		v->bios_version = "1201";
		v->bios_date = "08/22/2025";
		v->year = 2025, v->month = 8, v->day = 22, v->hour = 15, v->minute = 47, v->second = 3;
		v->agesa = "TurinPI-SP5 1.0.0.6";
		v->sev_build = 24;
		v->ucode_patch = 0x0B002155;
		v->kernel = "6.14.11-2-pve";
		v->nps = 4;
	}
	v->sev_api_major = 1;
	v->sev_api_minor = 55;
}

void variant_forms(struct variant *v)
{
	struct formset *s = &v->setup;
	s->module = "Setup";
	s->guid = sample_guid("7B59104A-C00D-4158-87FF-F04D6396A915");
	s->title = "Setup";
	s->help = "Setup";
	s->class_id = 1;
	s->usual_qflags = 0x10;
	s->config_keywords = true;
	fs_run(s, v->version, setup_define);

	struct formset *c = &v->cbs;
	c->module = "CbsSetupDxeBRH";
	c->guid = sample_guid("B04535E3-3004-4946-9EB7-149428983053");
	c->title = "AMD CBS";
	c->help = "AMD CBS Setup Page";
	c->class_id = 0x55;
	c->path_prefix = "Advanced > AMD CBS";
	c->usual_qflags = 0x10;
	c->amd_style = true;
	c->config_keywords = true;
	c->keyword_suffix = "BRH";
	fs_run(c, v->version, cbs_define);
}

static void free_variant(struct variant *v)
{
	fs_free(&v->setup);
	fs_free(&v->cbs);
	free(v->dsdt);
	free(v->ssdt1);
	free(v->ssdt2);
}

static void plant_versions(const struct variant *a, const struct variant *b)
{
	plant_version("bios_version", a->bios_version, b->bios_version);
	plant_version("bios_date", a->bios_date, b->bios_date);
	plant_version("agesa", sample_printf("AGESA!V9 %s", a->agesa), sample_printf("AGESA!V9 %s", b->agesa));
	plant_version("sev_firmware", sample_printf("%u.%u build %u", a->sev_api_major, a->sev_api_minor, a->sev_build),
		      sample_printf("%u.%u build %u", b->sev_api_major, b->sev_api_minor, b->sev_build));
	plant_version("microcode", sample_printf("0x%08X", a->ucode_patch), sample_printf("0x%08X", b->ucode_patch));
	/* PSP directory versions as PSPTool prints them: header bytes 0x60-0x63 reversed, in hex */
	plant_version("psp_bootloader", "0.1C.0.23", "0.1C.0.2A");
	plant_version("smu_firmware", "0.60.4E.0", "0.60.52.0");
	plant_varstore("AmdSetupBRH", "3A997502-647A-4C82-998E-52EF9486A247",
		       sample_printf("size 0x%X -> 0x%X", fs_varstore((struct formset *)&a->cbs, "AmdSetupBRH")->size,
				     fs_varstore((struct formset *)&b->cbs, "AmdSetupBRH")->size));
}

/* Every difference between the question models of the two versions must have been planted
 * (planted-changes.json is the answer key of a diff). Question ids are renumbered by real BIOS
 * builds too and are not a setting change. */
static bool same_options(const struct question *a, const struct question *b)
{
	if (!a->opts || !b->opts)
		return a->opts == b->opts;
	size_t i = 0;
	for (; a->opts[i].text && b->opts[i].text; i++)
		if (strcmp(a->opts[i].text, b->opts[i].text) != 0 || a->opts[i].value != b->opts[i].value)
			return false;
	return !a->opts[i].text && !b->opts[i].text;
}

static void check_planted(const struct formset *a, const struct formset *b)
{
	for (size_t i = 0; i < a->nq; i++) {
		const struct question *qa = &a->q[i];
		if (qa->kind == QK_REF)
			continue;
		const struct question *qb = fs_question(b, qa->prompt);
		if (!qb) {
			if (!plant_has("removed", qa->prompt))
				sample_die("%s: \"%s\" is gone in %d but not planted as removed", a->module, qa->prompt, b->version);
			continue;
		}
		if (strcmp(qa->path, qb->path) != 0 && !plant_has("moved", qa->prompt))
			sample_die("%s: \"%s\" moved but is not planted as moved", a->module, qa->prompt);
		bool changed = qa->def != qb->def || qa->mfg != qb->mfg || !same_options(qa, qb) || qa->min != qb->min ||
			       qa->max != qb->max || qa->f->offset != qb->f->offset || qa->f->width != qb->f->width ||
			       strcmp(qa->vs->name, qb->vs->name) != 0 || strcmp(qa->help ? qa->help : "", qb->help ? qb->help : "") != 0;
		if (changed && !plant_has("changed", qa->prompt))
			sample_die("%s: \"%s\" changed but is not planted as changed", a->module, qa->prompt);
	}
	for (size_t i = 0; i < b->nq; i++)
		if (b->q[i].kind != QK_REF && !fs_question(a, b->q[i].prompt) && !plant_has("added", b->q[i].prompt))
			sample_die("%s: \"%s\" is new in %d but not planted as added", b->module, b->q[i].prompt, b->version);
}

/* Why a module differs, for the modules that change on purpose; anything else that differs is a
 * container of changed modules or carries the new BIOS version. */
static const char *module_reason(const char *name)
{
	static const struct {
		const char *name, *why;
	} reasons[] = {
		{"AmdSevTioDxe", "new DXE driver (SEV-TIO support)"},
		{"CsmDxe", "CSM removed"},
		{"CbsSetupDxeBRH", "AMD CBS forms and AmdSetupBRH layout changed"},
		{"Setup", "AMI Setup forms changed"},
		{"AMITSE", "new BIOS version in its strings"},
		{"SmbiosStaticData", "new BIOS version and release date"},
		{"$FID file", "new project version and build time"},
		{"NVRAM external defaults", "new default values"},
		{"NVAR store", "new default values"},
	};
	for (size_t i = 0; i < ARRAY_LEN(reasons); i++)
		if (strcmp(reasons[i].name, name) == 0)
			return reasons[i].why;
	return "new AGESA code and version string";
}

static const struct module_record *find_module(const struct variant *v, const struct module_record *r)
{
	for (size_t i = 0; i < v->nmodules; i++)
		if (fw_guid_eq(&v->modules[i].guid, &r->guid) && v->modules[i].occurrence == r->occurrence)
			return &v->modules[i];
	return NULL;
}

/* Volume-image files only wrap the modules they hold; they are not modules themselves. */
static bool container(const struct module_record *r)
{
	return strcmp(r->name, "DXE volume file") == 0 || strcmp(r->name, "AGESA PEI volume file") == 0;
}

/* Modules compare by FFS file GUID (and occurrence: PEI volumes A and B hold the same files). */
static void plant_modules(const struct variant *a, const struct variant *b)
{
	char g[FW_GUID_STR_LEN];
	for (size_t i = 0; i < b->nmodules; i++) {
		const struct module_record *rb = &b->modules[i], *ra = find_module(a, rb);
		if (rb->occurrence || container(rb))
			continue; /* copy B of the PEI volume changes with copy A */
		if (!ra)
			plant_module("added", rb->name, fw_guid_format(&rb->guid, g), module_reason(rb->name));
		else if (memcmp(ra->hash, rb->hash, sizeof(ra->hash)) != 0)
			plant_module("changed", rb->name, fw_guid_format(&rb->guid, g), module_reason(rb->name));
	}
	for (size_t i = 0; i < a->nmodules; i++)
		if (!a->modules[i].occurrence && !container(&a->modules[i]) && !find_module(b, &a->modules[i]))
			plant_module("removed", a->modules[i].name, fw_guid_format(&a->modules[i].guid, g),
				     module_reason(a->modules[i].name));
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The dense bench image alone (make bench builds it; make samples does not). */
static int write_dense(enum dense_kind kind, size_t mib, double t0)
{
	const char *name = kind == DENSE_LZMA ? "LZMA" : "ZLIB";
	size_t len;
	struct dense_stats st;
	uint8_t *image = build_dense_image(kind, mib, &len, &st);
	const char *rel = sample_printf("DENSE-%s-%zuM.FD", name, mib);
	out_write(rel, image, len);
	free(image);
	fprintf(stderr, "  DENSE   %s: %zu drivers, %llu bytes inflated (%.1f s)\n", rel, st.files,
		(unsigned long long)st.inflated, now() - t0);
	fw_arena_free(&sample_arena);
	return 0;
}

#define USAGE "usage: fwlens-samples --out DIR\n       fwlens-samples --dense lzma|zlib [--mib N] --out DIR\n"

int main(int argc, char **argv)
{
	const char *out = NULL, *dense = NULL;
	size_t mib = 128;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
			out = argv[++i];
		else if (strcmp(argv[i], "--dense") == 0 && i + 1 < argc)
			dense = argv[++i];
		else if (strcmp(argv[i], "--mib") == 0 && i + 1 < argc) {
			char *end;
			unsigned long v = strtoul(argv[++i], &end, 10);
			if (*end || v < 1 || v > 1024) {
				fprintf(stderr, "fwlens-samples: --mib takes 1 to 1024\n");
				return 2;
			}
			mib = v;
		} else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			printf(USAGE);
			return 0;
		} else {
			fprintf(stderr, USAGE);
			return 2;
		}
	}
	if (!out || (dense && strcmp(dense, "lzma") != 0 && strcmp(dense, "zlib") != 0)) {
		fprintf(stderr, USAGE);
		return 2;
	}
	double t0 = now();
	fw_arena_init(&sample_arena);
	out_set_root(out);
	out_mkdirs(".");
	if (dense)
		return write_dense(strcmp(dense, "lzma") == 0 ? DENSE_LZMA : DENSE_ZLIB, mib, t0);

	struct sample_key *signer = key_derive("fwlens sample capsule signing key");
	struct sample_key *root = key_derive("fwlens sample platform root key");
	key_write_pem(signer, "test-signing-key.pem", "test-signing-key.pub.pem");
	key_write_pem(root, "test-root-key.pem", "test-root-key.pub.pem");

	static struct variant variants[2];
	init_variant(&variants[0], 1104);
	init_variant(&variants[1], 1201);
	for (int i = 0; i < 2; i++) {
		struct variant *v = &variants[i];
		variant_forms(v);
		build_acpi_asl(v);
		size_t len;
		struct rom_map map;
		uint8_t *image = build_flash_image(v, root, &len, &map);
		write_capsule(v, image, len, &map, signer, root, sample_printf("ESC8000A-E13-ASUS-%s.CAP", v->bios_version));
		free(image);
		write_sysroot(v, sample_printf("sysroot-%s", v->bios_version), STORY_REFERENCE);
		if (v->version == 1104) {
			write_sysroot(v, "sysroot-1104-identity", STORY_IDENTITY);
			write_guest_sysroot(v, "sysroot-snp-guest");
		}
	}
	/* the hostile samples: BIOS 1104 with a forms module of hostile texts, and its machine */
	static struct variant hostile;
	init_variant(&hostile, 1104);
	variant_forms(&hostile);
	hostile_forms(&hostile);
	build_acpi_asl(&hostile);
	size_t hostile_len;
	struct rom_map hostile_map;
	uint8_t *hostile_image = build_flash_image(&hostile, root, &hostile_len, &hostile_map);
	write_capsule(&hostile, hostile_image, hostile_len, &hostile_map, signer, root, "ESC8000A-E13-HOSTILE.CAP");
	free(hostile_image);
	write_hostile_sysroot(&hostile, "sysroot-hostile");

	plant_versions(&variants[0], &variants[1]);
	plant_modules(&variants[0], &variants[1]);
	check_planted(&variants[0].setup, &variants[1].setup);
	check_planted(&variants[0].cbs, &variants[1].cbs);
	plant_write("planted-changes.json");

	for (int i = 0; i < 2; i++)
		free_variant(&variants[i]);
	free_variant(&hostile);
	fs_free(hostile.extra);
	plant_free();
	key_free(signer);
	key_free(root);
	fprintf(stderr, "  SAMPLES %s (%.1f s)\n", out, now() - t0);
	fw_arena_free(&sample_arena);
	return 0;
}
