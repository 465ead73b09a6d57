/* ACPI tables inside a firmware image: the image is opened through the firmware tree
 * (capsule/detect.h: capsules, flash images, volumes, FFS files, sections), and the body of every
 * leaf section (raw sections on AMI Aptio, where the static tables live, but also PE images that
 * carry AML) is scanned for a table header whose checksum holds. Compressed sections are seen
 * inflated, once, through their children. A table found twice (the same bytes in two modules) is
 * kept once. */
#include <stdio.h>
#include <string.h>

#include "acpi/decode.h"
#include "acpi/set.h"
#include "capsule/detect.h"
#include "parsers/guid.h"
#include "parsers/hash.h"

/* A candidate must look like a real header before its checksum is summed: a signature of
 * [A-Z0-9_!], a Length that fits, and printable OEM and creator IDs (space or NUL padded). */
static bool printable_id(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] && (p[i] < 0x20 || p[i] >= 0x7F))
			return false;
	return p[0] != 0;
}

static bool upper_id(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] && !((p[i] >= 'A' && p[i] <= 'Z') || (p[i] >= '0' && p[i] <= '9') || p[i] == ' ' || p[i] == '_'))
			return false;
	return true;
}

/* Known signatures need a printable header; a signature nobody describes must also look like
 * what firmware writes (upper-case OEM ID, a small revision), or text that happens to sum to 0
 * would pass for a table. */
static bool header_plausible(const uint8_t *p, size_t room)
{
	if (room < FW_ACPI_HEADER_SIZE || !fw_acpi_signature_ok(p, room))
		return false;
	uint32_t len = fw_le32(p + 4);
	if (len < FW_ACPI_HEADER_SIZE || len > room || p[8] >= 0x80)
		return false;
	if (!printable_id(p + 10, 6) || !printable_id(p + 28, 4))
		return false;
	char sig[5] = {(char)p[0], (char)p[1], (char)p[2], (char)p[3], 0};
	if (fw_acpi_decoder_find(sig))
		return true;
	return p[8] >= 1 && p[8] <= 20 && upper_id(p + 10, 6);
}

struct scan {
	struct fw_acpi_set *s;
	size_t found, duplicates;
	struct fw_error *err;
	bool failed;
};

static bool seen_before(const struct fw_acpi_set *s, const uint8_t *p, uint32_t len)
{
	for (size_t i = 0; i < s->ntables; i++) {
		const struct fw_acpi_table *t = s->tables[i];
		if (t->data.len == len && memcmp(t->data.p, p, len) == 0)
			return true;
	}
	return false;
}

/* "AmdCpmInitDxe 88015920-2B9B-4B2E-840C-AD76BC6C3ABF, PE32 image section +0x12490": the module
 * that carries the table, by name when the GUID table knows it. */
static void origin(const struct fw_node *n, size_t off, char *buf, size_t len)
{
	const struct fw_node *file = n;
	while (file && file->kind != FW_NODE_FILE)
		file = file->parent;
	char g[FW_GUID_STR_LEN] = "";
	const char *name = NULL;
	if (file && file->has_guid) {
		fw_guid_format(&file->guid, g);
		name = file->name ? file->name : fw_guid_name(&file->guid);
	}
	if (file)
		snprintf(buf, len, "%s%s%s, %s section +0x%zx", name ? name : "", name ? " " : "", g, n->type ? n->type : "?", off);
	else
		snprintf(buf, len, "%s section +0x%zx", n->type ? n->type : "?", off);
}

static bool scan_node(struct fw_node *n, void *ctx)
{
	struct scan *sc = ctx;
	if (sc->failed)
		return false;
	if (n->kind != FW_NODE_SECTION || n->first_child || !n->body.p)
		return true;
	const struct fw_view *v = &n->body;
	for (size_t off = 0; off + FW_ACPI_HEADER_SIZE <= v->len; off++) {
		const uint8_t *p = v->p + off;
		if (!header_plausible(p, v->len - off))
			continue;
		uint32_t len = fw_le32(p + 4);
		if (fw_sum8(p, len) != 0)
			continue;
		if (seen_before(sc->s, p, len)) {
			sc->duplicates++;
			off += len - 1;
			continue;
		}
		char where[512];
		origin(n, off, where, sizeof(where));
		if (!fw_acpi_set_add_table(sc->s, p, len, fw_view_abs(v, off), 0, where, sc->err)) {
			sc->failed = true;
			return false;
		}
		sc->found++;
		off += len - 1; /* tables do not overlap */
	}
	return true;
}

bool fw_acpi_set_add_nodes(struct fw_acpi_set *s, struct fw_node *const *nodes, size_t n, const char *name,
			   struct fw_error *err)
{
	struct scan sc = {s, 0, 0, err, false};
	for (size_t i = 0; i < n && !sc.failed; i++)
		fw_node_walk(nodes[i], scan_node, &sc);
	if (sc.failed)
		return false;
	if (!sc.found)
		return fw_error_set(err, FW_E_NOT_FOUND, "%s: no ACPI table with a valid checksum in this firmware image", name);
	if (sc.duplicates)
		fw_acpi_set_diag(s, FW_DIAG_INFO, "%zu more copies of the same tables were found and left out", sc.duplicates);
	return true;
}

bool fw_acpi_set_add_tree(struct fw_acpi_set *s, const struct fw_tree *t, const char *name, struct fw_error *err)
{
	struct fw_node *root = t ? t->root : NULL;
	return fw_acpi_set_add_nodes(s, &root, root ? 1 : 0, name, err);
}

static bool scan_firmware(struct fw_acpi_set *s, struct fw_firmware *fw, const char *name, struct fw_error *err)
{
	bool ok = fw_acpi_set_add_tree(s, fw->tree, name, err);
	fw_firmware_close(fw);
	return ok;
}

bool fw_acpi_set_add_image_buffer(struct fw_acpi_set *s, const uint8_t *p, size_t n, const char *origin,
				  struct fw_error *err)
{
	struct fw_firmware fw;
	if (!fw_firmware_parse_buffer(p, n, NULL, &fw, err))
		return false;
	return scan_firmware(s, &fw, origin ? origin : "input", err);
}
