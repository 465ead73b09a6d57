/* fwlens snapshot capture|show: capture a machine into one file, and show what a snapshot holds. */
#include "parsers/json-text.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "emit.h"
#include "term-escape.h"
#include "parsers/hash.h"
#include "tools/host/machine.h"
#include "tools/host/snapshot.h"
#include "tools/query/source.h"

static void progress(void *ctx, unsigned long done)
{
	fw_cli_progress(ctx, "capturing", done, 0);
}

static int run_capture(struct fw_cli *cli)
{
	if (!cli->output_path)
		return fw_cli_usage_error(cli, "capture needs -o OUT (the snapshot file to write)");
	if (cli->argc > 1)
		return fw_cli_usage_error(cli, "capture takes no further arguments ('%s')", cli->argv[1]);
	int rc = fw_cli_refuse_binary_terminal(cli);
	if (rc)
		return rc;
	fw_cli_output_private(cli); /* EFI variables, Secure Boot keys, the kernel log, the command line */
	struct fw_capture_options o;
	memset(&o, 0, sizeof(o));
	o.root = fw_cli_opt(cli, "root") ? fw_cli_opt(cli, "root") : "/";
	o.image = fw_cli_opt(cli, "image");
	o.image_ref = fw_cli_opt(cli, "image-ref");
	if (o.image && o.image_ref)
		return fw_cli_usage_error(cli, "--image stores the image, --image-ref names it: give one of them");
	struct fw_strlist varstores = {0};
	if (o.image)
		fw_source_image_varstores(o.image, &varstores);
	o.image_varstores = &varstores;
	o.dmesg = fw_cli_opt(cli, "dmesg");
	o.all_vars = fw_cli_flag(cli, "all-vars");
	o.progress = progress;
	o.progress_ctx = cli;
	struct fw_capture_stats st;
	struct fw_error err;
	fw_error_clear(&err);
	bool ok = fw_snapshot_capture(&o, fw_cli_out_bytes(cli), &st, &err);
	fw_strlist_free(&varstores);
	fw_cli_progress_done(cli);
	if (!ok)
		return fw_cli_fail(cli, &err);
	if (st.unreadable)
		fw_log_warn(cli, "%lu files could not be read (recorded in the manifest; 'fwlens snapshot show' lists them)",
			    st.unreadable);
	fw_log_info(cli, "%lu files, %lu links, %llu bytes (%llu stored)", st.members, st.links,
		    (unsigned long long)st.bytes, (unsigned long long)st.stored_bytes);
	if (!cli->quiet)
		fprintf(stderr, "fwlens snapshot: captured %lu files and %lu links from %s into %s\n", st.members, st.links,
			o.root, cli->output_path);
	return 0;
}

/* Readable files under a folder (one level of subfolders, as sysfs ACPI tables have). */
static size_t count_files(struct fw_machine *m, const char *rel, int depth)
{
	struct fw_strlist l;
	if (depth > 2 || !fw_machine_list(m, rel, &l))
		return 0;
	size_t n = 0;
	for (size_t i = 0; i < l.count; i++) {
		char sub[4096];
		struct fw_blob b;
		snprintf(sub, sizeof(sub), "%s/%s", rel, l.items[i]);
		if (fw_machine_read(m, sub, &b, NULL))
			n++;
		else
			n += count_files(m, sub, depth + 1);
	}
	fw_strlist_free(&l);
	return n;
}

static size_t count_dir(struct fw_machine *m, const char *rel)
{
	struct fw_strlist l;
	if (!fw_machine_list(m, rel, &l))
		return 0;
	size_t n = l.count;
	fw_strlist_free(&l);
	return n;
}

/* What show tells of a snapshot or machine folder. */
struct shown {
	const char *path;
	struct fw_machine *m;
	json_t *manifest, *members;
	size_t checked, mismatched;
	json_t *facts, *counts, *unreadable;
};

static json_t *shown_document(const void *ctx)
{
	const struct shown *s = ctx;
	json_t *doc = json_object();
	json_object_set_new(doc, "path", json_string(s->path));
	json_object_set_new(doc, "kind", json_string(fw_machine_kind(s->m) == FW_MACHINE_SNAPSHOT ? "snapshot" : "folder"));
	if (s->manifest) {
		json_object_set(doc, "created", json_object_get(s->manifest, "created"));
		json_object_set(doc, "tool", json_object_get(s->manifest, "tool"));
		json_object_set(doc, "source", json_object_get(s->manifest, "source"));
		json_object_set_new(doc, "members", json_integer((json_int_t)json_array_size(s->members)));
		json_object_set_new(doc, "links", json_integer((json_int_t)json_array_size(json_object_get(s->manifest, "links"))));
		json_object_set_new(doc, "members_checked", json_integer((json_int_t)s->checked));
		json_object_set_new(doc, "members_mismatched", json_integer((json_int_t)s->mismatched));
	}
	json_object_set(doc, "facts", s->facts);
	json_object_set(doc, "counts", s->counts);
	json_object_set(doc, "unreadable", s->unreadable);
	return doc;
}

/* A string from the machine or its manifest (DMI strings, host name, paths): one line whatever it
 * holds, its line feeds and other controls shown as visible escapes. */
static void one_line(FILE *f, const char *text)
{
	fw_term_escape(f, text, strlen(text), 0, true);
}

static void shown_text(struct fw_cli *cli, const void *ctx)
{
	const struct shown *s = ctx;
	FILE *f = fw_cli_out(cli);
	const char *b = fw_cli_color(cli, "bold"), *r = fw_cli_color(cli, "reset");
	fputs(b, f);
	one_line(f, s->path);
	fprintf(f, "%s: %s\n", r, fw_machine_kind(s->m) == FW_MACHINE_SNAPSHOT ? "fwlens snapshot" : "machine folder");
	if (s->manifest) {
		fprintf(f, "  created   %s by %s\n", json_string_value(json_object_get(s->manifest, "created")),
			json_string_value(json_object_get(s->manifest, "tool")));
		const char *root = json_string_value(json_object_get(json_object_get(s->manifest, "source"), "root"));
		fputs("  from      ", f);
		one_line(f, root ? root : "(not known)");
		fputc('\n', f);
		fprintf(f, "  members   %zu files, %zu links; %zu checked, %zu mismatched\n", json_array_size(s->members),
			json_array_size(json_object_get(s->manifest, "links")), s->checked, s->mismatched);
	}
	const char *k;
	json_t *v, *e;
	size_t i;
	json_object_foreach(s->facts, k, v)
	{
		fprintf(f, "  %-13s ", k);
		one_line(f, json_is_string(v) ? json_string_value(v) : "(not captured)");
		fputc('\n', f);
	}
	json_object_foreach(s->counts, k, v)
	{
		if (json_is_boolean(v))
			fprintf(f, "  %-13s %s\n", k, json_is_true(v) ? "yes" : "no");
		else
			fprintf(f, "  %-13s %lld\n", k, (long long)json_integer_value(v));
	}
	if (json_array_size(s->unreadable)) {
		fprintf(f, "  unreadable:\n");
		json_array_foreach(s->unreadable, i, e)
		{
			const char *path = json_string_value(json_object_get(e, "path"));
			const char *reason = json_string_value(json_object_get(e, "reason"));
			fputs("    ", f);
			one_line(f, path ? path : "(a name that is not UTF-8)");
			fputs(": ", f);
			one_line(f, reason ? reason : "");
			fputc('\n', f);
		}
	}
}

static int run_show(struct fw_cli *cli)
{
	if (cli->argc != 2)
		return fw_cli_usage_error(cli, "show takes one snapshot (or machine folder)");
	const char *path = cli->argv[1];
	struct fw_machine *m;
	struct fw_error err;
	fw_error_clear(&err);
	if (!fw_machine_open(path, &m, &err))
		return fw_cli_fail(cli, &err);
	json_t *manifest = NULL;
	if (fw_machine_manifest_json(m))
		manifest = json_loads(fw_machine_manifest_json(m), 0, NULL);
	/* integrity: every member's bytes against the manifest's SHA-256 */
	enum { MAX_MEMBER_WARNINGS = 20 };
	size_t checked = 0, mismatched = 0;
	json_t *members = manifest ? json_object_get(manifest, "members") : NULL, *e;
	size_t i;
	json_array_foreach(members, i, e)
	{
		char *p = fw_snapshot_json_path(e, "path"); /* the raw bytes of a name that is not UTF-8 */
		const char *want = json_string_value(json_object_get(e, "sha256"));
		struct fw_blob b;
		char sha[FW_SHA256_HEX_LEN];
		if (!p || !want) {
			free(p);
			continue;
		}
		checked++;
		bool present = fw_machine_read(m, p, &b, NULL);
		if (!present || strcmp(fw_sha256_hex(b.data, b.len, sha), want) != 0) {
			/* a truncated archive loses hundreds of members: name the first few, count the rest */
			if (++mismatched <= MAX_MEMBER_WARNINGS)
				fw_log_warn(cli, present ? "member %s does not match its SHA-256 in the manifest"
							 : "member %s of the manifest is missing from the archive",
					    json_string_value(json_object_get(e, "path")));
		}
		free(p);
	}
	if (mismatched > MAX_MEMBER_WARNINGS)
		fw_log_warn(cli, "%zu more members are missing or do not match their SHA-256", mismatched - MAX_MEMBER_WARNINGS);
	static const char *const dmi[][2] = {
		{"host", "proc/sys/kernel/hostname"},         {"board", "sys/class/dmi/id/board_name"},     {"product", "sys/class/dmi/id/product_name"},
		{"vendor", "sys/class/dmi/id/sys_vendor"},    {"bios_version", "sys/class/dmi/id/bios_version"},
		{"bios_date", "sys/class/dmi/id/bios_date"},  {"kernel", "proc/sys/kernel/osrelease"},
		{"cmdline", "proc/cmdline"},
	};
	json_t *facts = json_object();
	for (size_t k = 0; k < sizeof(dmi) / sizeof(dmi[0]); k++) {
		char *v = fw_machine_read_text(m, dmi[k][1]);
		json_object_set_new(facts, dmi[k][0], v ? json_string(v) : json_null());
		free(v);
	}
	/* which boot was captured, and where its kernel log came from */
	char *boot_id = fw_machine_read_text(m, "proc/sys/kernel/random/boot_id");
	if (boot_id)
		boot_id[strcspn(boot_id, "\n")] = '\0';
	json_object_set_new(facts, "boot_id", boot_id ? json_string(boot_id) : json_null());
	free(boot_id);
	char *stat = fw_machine_read_text(m, "proc/stat");
	const char *bt = stat ? strstr(stat, "\nbtime ") : NULL;
	json_object_set_new(facts, "boot_time", bt ? json_integer(strtoll(bt + 7, NULL, 10)) : json_null());
	free(stat);
	/* the running kernel (/dev/kmsg, dmesg) or the file var/log/dmesg; a folder and its snapshot say the same */
	const char *log_from = NULL;
	if (!members) { /* a folder, or / where the running kernel's log is read */
		log_from = fw_machine_kernel_log_from(m);
		if (strcmp(log_from, "var/log/dmesg") == 0 && !fw_machine_exists(m, "var/log/dmesg"))
			log_from = NULL;
	}
	json_array_foreach(members, i, e)
	{
		const char *mp = json_string_value(json_object_get(e, "path"));
		const char *from = json_string_value(json_object_get(e, "from"));
		if (mp && from && strcmp(mp, "var/log/dmesg") == 0) /* a file's absolute path names var/log/dmesg */
			log_from = from[0] == '/' && strcmp(from, "/dev/kmsg") != 0 ? "var/log/dmesg" : from;
	}
	json_object_set_new(facts, "kernel_log_from", log_from ? json_string(log_from) : json_null());
	json_t *counts = json_object();
	json_object_set_new(counts, "acpi_tables", json_integer((json_int_t)count_files(m, "sys/firmware/acpi/tables", 0)));
	json_object_set_new(counts, "efivars", json_integer((json_int_t)count_files(m, "sys/firmware/efi/efivars", 2)));
	json_object_set_new(counts, "pci_devices", json_integer((json_int_t)count_dir(m, "sys/bus/pci/devices")));
	json_object_set_new(counts, "iommu_groups", json_integer((json_int_t)count_dir(m, "sys/kernel/iommu_groups")));
	json_object_set_new(counts, "kernel_log", json_boolean(fw_machine_exists(m, "var/log/dmesg")));
	json_t *unreadable = manifest ? json_incref(json_object_get(manifest, "unreadable")) : json_array();

	struct shown shown = {path, m, manifest, members, checked, mismatched, facts, counts, unreadable};
	fw_cli_emit(cli, &(struct fw_emit){"snapshot", shown_document, shown_text, NULL, NULL, &shown, NULL});
	json_decref(facts);
	json_decref(counts);
	json_decref(unreadable);
	json_decref(manifest);
	fw_machine_close(m);
	if (mismatched) {
		fw_error_set(&err, FW_E_INVALID, "%s: %zu of %zu members are missing or do not match the manifest",
			     cli->argv[1], mismatched, checked);
		return fw_cli_fail(cli, &err);
	}
	return 0;
}

static int run_snapshot(struct fw_cli *cli)
{
	const char *sub = cli->argv[0];
	if (strcmp(sub, "capture") == 0)
		return run_capture(cli);
	if (strcmp(sub, "show") == 0)
		return run_show(cli);
	return fw_cli_usage_error(cli, "unknown subcommand '%s' (capture or show)", sub);
}

static const struct fw_option snapshot_options[] = {
	{"root", 0, "DIR", "capture: the machine root to read (default /); a folder laid out like one works too", NULL},
	{"image", 0, "FILE", "capture: also store this BIOS image in the snapshot", NULL},
	{"image-ref", 0, "FILE", "capture: name this BIOS image by SHA-256, size and name instead of storing it (commands "
				 "find it in --image-dir or the cache)", NULL},
	{"dmesg", 0, "FILE", "capture: the kernel log to store (default: var/log/dmesg, or the dmesg program on /)", NULL},
	{"all-vars", 0, NULL, "capture: every EFI variable, not only setup, defaults and Secure Boot ones", NULL},
	{0},
};

FW_COMMAND(snapshot,
	.synopsis = "capture [--root DIR] [--image FILE | --image-ref FILE] [--dmesg FILE] [--all-vars] -o OUT | show SNAPSHOT [--format text|json|xml]",
	.summary = "Capture a machine's firmware-related state into one file, or show what a snapshot holds",
	.description =
		"capture reads, without writing anything to the source: the ACPI tables, the EFI variables that hold setup "
		"values, defaults and Secure Boot keys, DMI ids, the kernel command line and version, IOMMU groups with their "
		"types and devices, PCI config spaces and topology, the kvm_amd/ccp parameters, the kernel log and, with "
		"--image, the BIOS image. A manifest records what was read, from where, sizes, SHA-256 and what could not be "
		"read and why; large members are gzip-compressed. Unprivileged runs work and record what root would have "
		"added. Symbolic links are followed only inside --root.\n\n"
		"--image-ref stores only the image's SHA-256, size and file name, so a fleet on one BIOS keeps one copy of "
		"the image: find, query, doctor, notes and diff find it in --image-dir DIR (a file named by its SHA-256, or "
		"any file there whose hash matches, hashed once and remembered in the cache); doctor and query decode "
		"nothing from it at all when the cache already holds its forms.\n\n"
		"Every command that takes a machine accepts a snapshot file or the folder itself.",
	.formats = "text,json,xml",
	.options = snapshot_options,
	.subcommands = "capture,show",
	.examples = "fwlens snapshot capture -o host-$(date +%F).fwsnap\n"
		    "fwlens snapshot capture --root build/samples/sysroot-1104 -o s1104.fwsnap\n"
		    "fwlens snapshot capture --image-ref /srv/bios/BIOS-1104.CAP -o host.fwsnap\n"
		    "fwlens snapshot show s1104.fwsnap --format json",
	.min_args = 1, .max_args = 2, .run = run_snapshot, .order = 60);
