/* fwlens notes: the uefi-settings markdown of a host (and what changed since a previous one). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cache-options.h"
#include "cli.h"
#include "diff-writers.h"
#include "emit.h"
#include "p2p-evidence-option.h"
#include "topo-dot.h"
#include "tools/query/notes.h"

/* "Changes since": the diff engine's markdown, one heading level below the section. */
static void render_changes(FILE *f, struct fw_source *previous, struct fw_source *src, void *ctx)
{
	struct fw_cli *cli = ctx;
	struct fw_diff d;
	fw_diff_run(previous, src, NULL, &d);
	for (size_t i = 0; i < d.nnotes; i++)
		fw_log_warn(cli, "changes: %s", d.notes[i]);
	fw_diff_markdown(f, &d, 3);
	fw_diff_free(&d);
}

/* The file -o is about to replace, if there is one (read-only, at most 16 MiB): false with err
 * when it exists and cannot be read whole, so that it is never replaced with its lines unread. */
static bool read_previous_output(struct fw_cli *cli, char **out, size_t *len, struct fw_error *err)
{
	const char *path = fw_cli_opt(cli, "output");
	*out = NULL;
	*len = 0;
	if (!path || strcmp(path, "-") == 0)
		return true;
	FILE *f = fopen(path, "rb");
	if (!f)
		return errno == ENOENT ? true
				       : fw_error_set(err, FW_E_UNWRITABLE, "%s: cannot read the notes it holds (%s): it is left as "
									   "it is", path, strerror(errno));
	size_t cap = 0;
	char *buf = NULL;
	bool ok = true;
	for (;;) {
		if (*len == cap) {
			if (cap >= ((size_t)16 << 20)) {
				ok = fw_error_set(err, FW_E_UNWRITABLE, "%s: over 16 MiB, too large to merge its lines with the new "
									"notes: it is left as it is", path);
				break;
			}
			cap = cap ? cap * 2 : 65536;
			buf = fw_xrealloc(buf, cap);
		}
		size_t got = fread(buf + *len, 1, cap - *len, f);
		*len += got;
		if (got == 0)
			break;
	}
	if (ok && ferror(f))
		ok = fw_error_set(err, FW_E_UNWRITABLE, "%s: cannot read the notes it holds: it is left as it is", path);
	fclose(f);
	if (!ok) {
		free(buf);
		*len = 0;
		return false;
	}
	*out = buf;
	return true;
}

/* --svg DIR: the topology as DIR/topology.dot and, drawn by Graphviz, DIR/topology.svg. Without
 * Graphviz (or a machine) the notes keep their table, and say why on standard error. */
static bool draw_topology(struct fw_cli *cli, struct fw_source *src, const char *dir, char *svg, size_t len)
{
	struct fw_acpi_set *set = fw_source_acpi(src);
	struct fw_topo_host th;
	if (!src->have_host || !set || !fw_source_topo_host(src, &th)) {
		fw_log_warn(cli, "--svg: %s is not a machine with ACPI tables; no topology to draw", cli->argv[0]);
		return false;
	}
	struct fw_topo_options to = {.host = &th};
	struct fw_acpi_topo *topo;
	struct fw_error err;
	fw_error_clear(&err);
	if (!fw_acpi_topo_build(set, &to, &topo, &err)) {
		fw_log_warn(cli, "--svg: %s", err.msg);
		return false;
	}
	char dot[4096];
	snprintf(dot, sizeof(dot), "%s/topology.dot", dir);
	snprintf(svg, len, "%s/topology.svg", dir);
	FILE *f = NULL;
	if ((mkdir(dir, 0755) == 0 || errno == EEXIST) && (f = fopen(dot, "w"))) {
		fw_topo_dot(f, topo, &src->host);
		if (fclose(f) != 0)
			f = NULL;
	}
	fw_acpi_topo_free(topo);
	if (!f) {
		fw_log_warn(cli, "--svg: cannot write %s: %s", dot, strerror(errno));
		return false;
	}
	if (!fw_topo_render_svg(getenv("FWLENS_DOT"), dot, svg, &err)) {
		fw_log_warn(cli, "--svg: %s; the topology stays a table (%s holds the graph)", err.msg, dot);
		return false;
	}
	return true;
}

struct shown {
	struct fw_source *src;
	const struct fw_notes_options *no;
};

/* Written to memory first: the blocks the user wrote in the file being replaced are kept. */
static int notes_markdown(struct fw_cli *cli, const void *ctx)
{
	const struct shown *s = ctx;
	char *fresh = NULL;
	size_t freshlen = 0;
	FILE *mem = open_memstream(&fresh, &freshlen);
	if (!mem) {
		struct fw_error err;
		fw_error_set(&err, FW_E_INTERNAL, "notes: cannot buffer the output");
		return fw_cli_fail(cli, &err);
	}
	fw_notes_write(mem, s->src, s->no);
	fclose(mem);
	size_t oldlen = 0, outlen = 0;
	char *old = NULL;
	char *merged = NULL;
	size_t kept = 0;
	struct fw_error err;
	fw_error_clear(&err);
	const char *path = fw_cli_opt(cli, "output");
	if (path && strcmp(path, "-") == 0)
		path = NULL;
	bool ok = read_previous_output(cli, &old, &oldlen, &err) &&
		  fw_notes_merge(old, oldlen, path, fresh, freshlen, &merged, &outlen, &kept, &err);
	if (ok) {
		fwrite(merged, 1, outlen, fw_cli_out(cli));
		if (kept)
			fw_log_info(cli, "%s: %zu line%s of yours kept in place", path, kept, kept == 1 ? "" : "s");
	}
	free(merged);
	free(old);
	free(fresh);
	return ok ? 0 : fw_cli_fail(cli, &err);
}

static const struct fw_emit_writer notes_writers[] = {{"markdown", notes_markdown}, {NULL, NULL}};

static int run_notes(struct fw_cli *cli)
{
	struct fw_source_options so = {.image = fw_cli_opt(cli, "image"), .lang = fw_cli_opt(cli, "lang"),
				       .vars = fw_cli_opt(cli, "vars")};
	int rc = fw_cli_p2p_evidence(cli, &so); /* the p2p-proof check in the summary and evidence */
	if (rc)
		return rc;
	rc = fw_cli_cache_setup(cli, &so);
	if (rc)
		return rc;
	const char *previous = fw_cli_opt(cli, "previous");
	if (previous)
		so.cache = NULL; /* "Changes since" compares the images' modules: the whole firmware tree, no entry holds it */
	struct fw_source src, prev;
	struct fw_error err;
	fw_error_clear(&err);
	if (!fw_source_open(cli->argv[0], &so, &src, &err))
		return fw_cli_fail(cli, &err);
	struct fw_notes_options no = {.title = fw_cli_opt(cli, "title")};
	if (previous) {
		struct fw_source_options po = {.image = fw_cli_opt(cli, "previous-image"), .lang = so.lang,
					       .image_dir = so.image_dir};
		if (!fw_source_open(previous, &po, &prev, &err)) {
			fw_error_prefix(&err, "--previous: ");
			fw_source_close(&src);
			return fw_cli_fail(cli, &err);
		}
		no.previous = &prev;
		no.render_changes = render_changes;
		no.render_ctx = cli;
	}
	const char *svg_dir = fw_cli_opt(cli, "svg");
	char svg_path[4096];
	if (svg_dir && draw_topology(cli, &src, svg_dir, svg_path, sizeof(svg_path)))
		no.topology_picture = svg_path;
	struct shown shown = {&src, &no};
	rc = fw_cli_emit(cli, &(struct fw_emit){"notes", NULL, NULL, NULL, NULL, &shown, notes_writers});
	if (rc) {
		fw_source_close(&src);
		if (previous)
			fw_source_close(&prev);
		return rc;
	}
	for (size_t i = 0; i < src.nwarnings; i++)
		fw_log_warn(cli, "%s", src.warnings[i]);
	if (previous) {
		for (size_t i = 0; i < prev.nwarnings; i++)
			fw_log_warn(cli, "previous: %s", prev.warnings[i]);
		fw_source_close(&prev);
	}
	fw_source_close(&src);
	return 0;
}

static const struct fw_option notes_options[] = {
	{"vars", 'V', "VARS", "current values from here: anything `fwlens nvram` reads (efivarfs folder or tar, NVRAM store or volume, whole image)", NULL},
	{"previous", 0, "OLD", "a previous snapshot or image: adds a \"Changes since\" section", NULL},
	{"image", 0, "FILE", "BIOS image whose forms decode the machine's stored settings", NULL},
	{"previous-image", 0, "FILE", "BIOS image for the previous machine (default: its stored image)", NULL},
	FW_P2P_EVIDENCE_OPTION,
	FW_CACHE_OPTIONS,
	{"title", 0, "TEXT", "title of the notes (default: product, BIOS version and date)", NULL},
	{"lang", 'l', "LANG", "display language of setup strings (default en-US)", NULL},
	{"svg", 0, "DIR", "draw the topology into DIR/topology.svg with Graphviz and link it from the notes", NULL},
	{0},
};

FW_COMMAND(notes,
	.synopsis = "SRC [--previous OLD] [--image FILE] [--p2p-evidence FILE]... [--title T] [-o FILE.md]",
	.summary = "Write the uefi-settings notes of a host: settings that matter, kernel side, topology, log, changes",
	.description =
		"SRC is a machine (snapshot or root folder, with --image or an image stored in the snapshot) or a BIOS "
		"image. The notes hold: a header (board, BIOS, kernel, SEV firmware, capture, image SHA-256); a summary with "
		"the doctor's verdict for an SEV-SNP host, vfio passthrough and GPU P2P; the settings that matter per area "
		"with current and default values, what each use needs and the varstore and offset they live at; the "
		"kernel side (command line, IOMMU mode, groups, kvm_amd, ACS on GPU paths); the GPU topology; the kernel "
		"log lines that prove each claim; the GPUs with model, VBIOS, driver, IOMMU group, NUMA node and owner (VM, "
		"container or host, from the Proxmox configurations); the NUMA layout (nodes, NPS, PXM to socket, SLIT); "
		"the changes since --previous; known issues, open questions and the evidence of every check.\n\n"
		"Text between <!-- fwlens:keep NAME --> and <!-- fwlens:end NAME --> markers is the reader's: with -o FILE "
		"it is taken from the FILE being replaced. So is every other line the reader added or edited: a FILE "
		"ends with a <!-- fwlens:generated ... --> line of the hashes of fwlens's lines, and a line whose hash is "
		"not there is kept in place (after the line before it, else at the end of its section). A FILE that "
		"cannot be merged (no such line: written by hand or an older fwlens; a damaged one; a line whose section "
		"is gone; unreadable) is refused with exit status 5 and left as it is.\n\n"
		"The output is deterministic: the same inputs give the same bytes.",
	.formats = "markdown",
	.options = notes_options,
	.examples = "fwlens notes host.fwsnap -o v2-uefi-settings.md\n"
		    "fwlens notes s1201.fwsnap --previous s1104.fwsnap -o v2-uefi-settings.md",
	.min_args = 1, .max_args = 1, .run = run_notes, .order = 75);
