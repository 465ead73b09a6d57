/* fwlens extract: the bytes of one node (a file, a volume, a section body), or every node into
 * a folder tree. Names written under DIR come from firmware data, so every one is sanitised:
 * nothing is ever created outside DIR, whatever the input says. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>
#include <ftw.h>

#include "cli.h"
#include "parsers/section.h"
#include "parsers/utf8.h"
#include "tools/cli/tree-json.h"
#include "tree-writers.h"

#define NAME_MAX_BYTES 80

static const struct fw_option extract_options[] = {
	{"guid", 'g', "GUID", "the node to extract: a file (else a volume or section) with this GUID", NULL},
	{"section", 's', "KIND", "extract the body of the first section of this kind inside the node instead",
	 "pe32,te,raw,ui,freeform,version,depex,body,stored"},
	{"index", 0, "N", "when several nodes have the GUID, take the N-th (from 0) in tree order", NULL},
	{"all", 0, "DIR", "write every node into DIR, a folder per node (header.bin, body.bin, info.txt)", NULL},
	{0},
};

/* --- one node -------------------------------------------------------------------------------- */

struct guid_match {
	struct fw_guid g;
	struct fw_node *found[2][64]; /* [0] files, [1] other nodes */
	size_t n[2];
};

static bool match_visit(struct fw_node *n, void *ctx)
{
	struct guid_match *m = ctx;
	if (!n->has_guid || !fw_guid_eq(&n->guid, &m->g))
		return true;
	int k = n->kind == FW_NODE_FILE ? 0 : 1;
	if (m->n[k] < 64)
		m->found[k][m->n[k]++] = n;
	return true;
}

static bool section_kind_matches(const struct fw_node *n, const char *kind)
{
	if (n->kind != FW_NODE_SECTION || !n->type)
		return false;
	static const struct {
		const char *kind;
		uint8_t type;
	} map[] = {
		{"pe32", FW_SECTION_PE32}, {"te", FW_SECTION_TE}, {"raw", FW_SECTION_RAW}, {"ui", FW_SECTION_USER_INTERFACE},
		{"freeform", FW_SECTION_FREEFORM_SUBTYPE_GUID}, {"version", FW_SECTION_VERSION},
		{"depex", FW_SECTION_DXE_DEPEX}, {"depex", FW_SECTION_PEI_DEPEX}, {"depex", FW_SECTION_MM_DEPEX},
	};
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(kind, map[i].kind) == 0 && strcmp(n->type, fw_section_type_name(map[i].type)) == 0)
			return true;
	return false;
}

struct section_find {
	const char *kind;
	struct fw_node *found;
};

static bool section_visit(struct fw_node *n, void *ctx)
{
	struct section_find *s = ctx;
	if (section_kind_matches(n, s->kind)) {
		s->found = n;
		return false;
	}
	return true;
}

static int write_bytes(struct fw_cli *cli, const uint8_t *p, size_t n)
{
	FILE *f = fw_cli_out(cli);
	if (n && fwrite(p, 1, n, f) != n) {
		struct fw_error err;
		fw_error_errno(&err, "%s: write failed", cli->output_path ? cli->output_path : "standard output");
		return fw_cli_fail(cli, &err);
	}
	return 0;
}

static int extract_one(struct fw_cli *cli, struct fw_firmware *fw, const char *guid_text)
{
	struct fw_error err;
	struct guid_match *m = fw_xcalloc(1, sizeof(*m));
	int rc = 0;
	if (!fw_guid_parse(guid_text, &m->g)) {
		const struct fw_guid_name *byname = fw_guid_lookup_name(guid_text);
		if (!byname) {
			free(m);
			return fw_cli_usage_error(cli, "--guid takes a GUID (or a module name from the GUID table), not '%s'",
						  guid_text);
		}
		m->g = byname->guid;
	}
	fw_node_walk(fw->tree->root, match_visit, m);
	int k = m->n[0] ? 0 : 1;
	size_t count = m->n[k];
	char g[FW_GUID_STR_LEN];
	fw_guid_format(&m->g, g);
	if (count == 0) {
		fw_error_set(&err, FW_E_NOT_FOUND, "%s: no file, volume or section with GUID %s", fw->tree->input_path, g);
		free(m);
		return fw_cli_fail(cli, &err);
	}
	size_t index = 0;
	const char *idx = fw_cli_opt(cli, "index");
	if (idx) {
		char *end;
		unsigned long v = strtoul(idx, &end, 10);
		if (!*idx || *end) {
			free(m);
			return fw_cli_usage_error(cli, "--index takes a number, not '%s'", idx);
		}
		if (v >= count) {
			fw_error_set(&err, FW_E_NOT_FOUND, "%s: --index %lu, but only %zu node%s with GUID %s", fw->tree->input_path,
				     v, count, count == 1 ? " has" : "s have", g);
			free(m);
			return fw_cli_fail(cli, &err);
		}
		index = v;
	} else if (count > 1) {
		char at[48];
		fw_log_warn(cli, "%zu nodes have GUID %s; extracting the first (at %s), --index picks another", count, g,
			    fw_offset_str(m->found[k][0]->offset, at, sizeof(at)));
	}
	struct fw_node *n = m->found[k][index];
	free(m);
	const char *section = fw_cli_opt(cli, "section");
	const uint8_t *p = n->data.p;
	size_t len = n->data.len;
	if (section && strcmp(section, "body") == 0) {
		p = n->body.p;
		len = n->body.len;
	} else if (section && strcmp(section, "stored") == 0) {
		size_t hs = n->header_size <= n->data.len ? n->header_size : n->data.len;
		p = n->data.p + hs;
		len = n->data.len - hs;
	} else if (section) {
		struct section_find s = {section, NULL};
		static const char *const kinds[] = {"pe32", "te", "raw", "ui", "freeform", "version", "depex"};
		bool known = false;
		for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
			known |= strcmp(section, kinds[i]) == 0;
		if (!known)
			return fw_cli_usage_error(cli, "--section takes pe32, te, raw, ui, freeform, version, depex, body or stored, not '%s'",
						  section);
		fw_node_walk(n, section_visit, &s);
		if (!s.found) {
			fw_error_set(&err, FW_E_NOT_FOUND, "%s: %s %s has no %s section", fw->tree->input_path,
				     fw_node_kind_name(n->kind), g, section);
			return fw_cli_fail(cli, &err);
		}
		p = s.found->body.p;
		len = s.found->body.len;
	}
	if ((rc = fw_cli_refuse_binary_terminal(cli)) != 0)
		return rc;
	rc = write_bytes(cli, p, len);
	if (rc == 0)
		fw_log_info(cli, "wrote 0x%zx bytes", len);
	return rc;
}

/* --- every node ------------------------------------------------------------------------------ */

/* "<index> <label>[ <name>]" with every byte outside [A-Za-z0-9 ._+()-] replaced by '_', cut at
 * NAME_MAX_BYTES. It starts with a digit, so it is never ".", "..", hidden or absolute. */
static void safe_name(char *out, size_t cap, size_t index, const struct fw_node *n)
{
	char label[128], raw[256];
	fw_node_label(n, label, sizeof(label));
	const char *extra = n->name && strcmp(n->name, label) != 0 ? n->name : NULL;
	snprintf(raw, sizeof(raw), "%zu %s%s%s", index, label, extra ? " " : "", extra ? extra : "");
	size_t o = 0;
	size_t limit = cap - 1 < NAME_MAX_BYTES ? cap - 1 : NAME_MAX_BYTES;
	for (const unsigned char *q = (const unsigned char *)raw; *q && o < limit; q++) {
		unsigned char c = *q;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == ' ' ||
			  c == '.' || c == '_' || c == '+' || c == '(' || c == ')' || c == '-';
		out[o++] = ok ? (char)c : '_';
	}
	while (o > 1 && (out[o - 1] == ' ' || out[o - 1] == '.'))
		o--;
	out[o] = '\0';
}

static int write_errno; /* why the last write failed, so extract --all can say the disk is full */

static bool write_file_at(int dirfd, const char *name, const uint8_t *p, size_t n, struct fw_error *err)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		write_errno = errno;
		return fw_error_errno(err, "cannot create %s", name);
	}
	while (n) {
		ssize_t w = write(fd, p, n > (1u << 30) ? (1u << 30) : n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			write_errno = errno;
			close(fd);
			errno = write_errno;
			return fw_error_errno(err, "writing %s failed", name);
		}
		p += w;
		n -= (size_t)w;
	}
	if (close(fd) != 0) {
		write_errno = errno;
		return fw_error_errno(err, "writing %s failed", name);
	}
	return true;
}

static bool write_info(int dirfd, const struct fw_node *n, struct fw_error *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return fw_error_errno(err, "out of memory");
	char g[FW_GUID_STR_LEN], tmp[256];
	fprintf(f, "Kind: %s\nType: %s\n", fw_node_kind_name(n->kind), n->type ? n->type : "");
	if (n->offset != FW_OFFSET_UNKNOWN)
		fprintf(f, "Offset: 0x%" PRIX64 "\n", n->offset);
	else
		fprintf(f, "Offset: none (inside decompressed data)\n");
	fprintf(f, "Size: 0x%" PRIX64 " (%" PRIu64 ")\nHeader size: 0x%X\n", n->size, n->size, n->header_size);
	if (n->has_guid)
		fprintf(f, "GUID: %s\n", fw_guid_format(&n->guid, g));
	if (n->name) {
		char *clean = fw_utf8_clean(n->name, true);
		fprintf(f, "Name: %s\n", clean);
		free(clean);
	}
	if (n->flags)
		fprintf(f, "Flags: %s\n", fw_node_flags_text(n, tmp, sizeof(tmp)));
	struct fw_field_iter it;
	const struct fw_field_value *fv = fw_field_first(&it, n);
	if (fv)
		fprintf(f, "Fields:\n");
	for (; fv; fv = fw_field_next(&it)) {
		size_t cap = fv->type == FW_VAL_BYTES ? fv->v.bytes.n * 2 + 1 : 4096;
		char *val = fw_xmalloc(cap < 64 ? 64 : cap);
		fw_field_text(fv, val, cap < 64 ? 64 : cap);
		char *clean = fw_utf8_clean(val, true);
		fprintf(f, "  %s: %s\n", fv->key, clean);
		free(clean);
		free(val);
	}
	if (n->diags)
		fprintf(f, "Diagnostics:\n");
	for (const struct fw_diag *d = n->diags; d; d = d->next)
		fprintf(f, "  %s: %s\n", fw_diag_severity_name(d->severity), d->msg);
	fclose(f);
	bool ok = write_file_at(dirfd, "info.txt", (const uint8_t *)buf, len, err);
	free(buf);
	return ok;
}

struct dump {
	struct fw_cli *cli;
	size_t nodes, total;
	uint64_t bytes;
	uint64_t max_bytes; /* what the tree may inflate to in all: nested nodes repeat their children's bytes */
};

static bool dump_node(int dirfd, const struct fw_node *n, size_t index, struct dump *d, struct fw_error *err)
{
	char name[NAME_MAX_BYTES + 1];
	safe_name(name, sizeof(name), index, n);
	if (mkdirat(dirfd, name, 0755) != 0) {
		write_errno = errno;
		return fw_error_errno(err, "cannot create the folder %s", name);
	}
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return fw_error_errno(err, "cannot open the folder %s", name);
	bool ok = true;
	size_t hs = n->header_size <= n->data.len ? n->header_size : n->data.len;
	if (d->bytes + hs + n->body.len > d->max_bytes) {
		close(fd);
		/* what the output may take, not a fault of the input: an I/O limit, like a full disk */
		return fw_error_set(err, FW_E_IO,
				    "%s: writing it would pass the limit of %" PRIu64
				    " bytes for extract --all (the total a tree may inflate to); %" PRIu64 " bytes in %zu nodes written",
				    name, d->max_bytes, d->bytes, d->nodes);
	}
	if (hs)
		ok = write_file_at(fd, "header.bin", n->data.p, hs, err);
	if (ok && n->body.len)
		ok = write_file_at(fd, "body.bin", n->body.p, n->body.len, err);
	if (ok)
		ok = write_info(fd, n, err);
	d->nodes++;
	d->bytes += hs + n->body.len;
	fw_cli_progress(d->cli, "extracting", d->nodes, d->total);
	size_t i = 0;
	for (const struct fw_node *c = n->first_child; c && ok; c = c->next)
		ok = dump_node(fd, c, i++, d, err);
	close(fd);
	if (!ok)
		fw_error_prefix(err, "%s/", name);
	return ok;
}

static bool open_empty_dir(const char *dir, int *fd, bool *created, struct fw_error *err)
{
	*created = mkdir(dir, 0755) == 0;
	if (!*created && errno != EEXIST)
		return fw_error_errno(err, "%s: cannot create the folder", dir);
	*fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*fd < 0)
		return fw_error_errno(err, "%s: cannot open the folder", dir);
	int dupfd = dup(*fd);
	DIR *d = dupfd >= 0 ? fdopendir(dupfd) : NULL;
	if (!d) {
		close(*fd);
		return fw_error_errno(err, "%s: cannot read the folder", dir);
	}
	struct dirent *e;
	bool empty = true;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			empty = false;
	closedir(d);
	if (!empty) {
		close(*fd);
		return fw_error_set(err, FW_E_IO, "%s: the folder is not empty (extract --all writes only into a new or empty folder)",
				    dir);
	}
	return true;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static int extract_all(struct fw_cli *cli, struct fw_firmware *fw, const char *dir)
{
	struct fw_error err;
	fw_error_clear(&err);
	int fd = -1;
	bool created = false;
	if (!open_empty_dir(dir, &fd, &created, &err))
		return fw_cli_fail(cli, &err);
	struct dump d = {cli, 0, fw->tree->node_count, 0, fw->tree->limits.max_decompressed_total};
	write_errno = 0;
	bool ok = dump_node(fd, fw->tree->root, 0, &d, &err);
	close(fd);
	fw_cli_progress_done(cli);
	if (!ok) {
		fw_error_prefix(&err, "%s/", dir);
		if (err.code == FW_E_IO && (write_errno == ENOSPC || write_errno == EDQUOT || write_errno == EFBIG))
			fw_error_prefix(&err, "the disk is full (or the file size limit reached) after %" PRIu64 " bytes in %zu nodes: ",
					d.bytes, d.nodes);
		/* a folder it made holds nothing else: take it away; a folder that was there is left to its owner */
		if (created && nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS) == 0)
			fw_error_prefix(&err, "%s removed; ", dir);
		return fw_cli_fail(cli, &err);
	}
	fprintf(fw_cli_out(cli), "%zu nodes, %" PRIu64 " bytes written to %s\n", d.nodes, d.bytes, dir);
	return 0;
}

static int run_extract(struct fw_cli *cli)
{
	const char *guid = fw_cli_opt(cli, "guid"), *all = fw_cli_opt(cli, "all");
	if (!guid == !all)
		return fw_cli_usage_error(cli, "give either --guid GUID or --all DIR");
	if (all && (fw_cli_opt(cli, "section") || fw_cli_opt(cli, "index")))
		return fw_cli_usage_error(cli, "--section and --index go with --guid, not --all");
	if (all && cli->output_path)
		return fw_cli_usage_error(cli, "--all writes into its folder; -o goes with --guid");
	struct fw_firmware fw;
	int rc;
	if (!fw_cli_open_firmware(cli, cli->argv[0], 0, &fw, &rc))
		return rc;
	rc = all ? extract_all(cli, &fw, all) : extract_one(cli, &fw, guid);
	fw_firmware_close(&fw);
	return rc;
}

FW_COMMAND(extract,
	.synopsis = "FILE (--guid GUID [--section KIND] [--index N] [-o PATH] | --all DIR)",
	.summary = "Write out the bytes of one file, volume or section, or of every node",
	.description =
		"With --guid, writes the node with that GUID (an FFS file first, else a volume or a "
		"GUID-defined or freeform section) as it is stored: header and body. GUID may also be a "
		"module name from the GUID table (Setup, AMITSE, CbsSetupDxeSHP). --section picks the body "
		"of the first section of a kind inside the node instead (pe32, te, raw, ui, freeform, "
		"version, depex), taken from the decompressed data where the section is compressed; "
		"--section body gives the node's body (for a compressed section, the inflated bytes), "
		"--section stored the bytes after its header as stored (the compressed stream, ready for "
		"`fwlens decompress`). "
		"Without -o the bytes go to standard output, never to a terminal.\n\n"
		"With --all, writes every node of the tree into DIR (created, or an empty folder): a "
		"folder per node named \"INDEX LABEL NAME\" holding header.bin, body.bin and info.txt, "
		"nested like the tree. Names come from the firmware, so they are sanitised: only letters, "
		"digits, space and ._+()- are kept, at most 80 bytes, always starting with the index; "
		"files are created with O_EXCL|O_NOFOLLOW, so nothing lands outside DIR. What it writes is "
		"bounded by the total a tree may inflate to (2 GiB); past it, or when the disk fills, it "
		"stops with exit 4, and removes DIR if it created it.",
	.options = extract_options,
	.examples = "fwlens extract BIOS.CAP --guid Setup --section pe32 -o Setup.efi  # the Setup driver\n"
		    "fwlens extract BIOS.CAP --guid 899407D7-99FE-43D8-9A21-79EC328CAC21 -o Setup.ffs\n"
		    "fwlens extract BIOS.CAP --all BIOS.dump  # every node, like UEFIExtract FILE all",
	.min_args = 1, .max_args = 1, .run = run_extract, .order = 12);
