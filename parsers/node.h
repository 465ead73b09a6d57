/* The generic node tree every decoder builds and every writer visits.
 *
 * A node has a kind (the README's JSON contract: capsule, image, region, volume, file, section,
 * nvram-store, variable, psp-directory, psp-entry, padding, free-space), a subtype text, its
 * absolute offset in the input (or unknown inside decompressed data), its size (header + body,
 * as UEFIExtract counts it), an optional GUID and name, decoded fields in declaration order and
 * diagnostics. The tree owns every node, string and decompressed buffer; limits on depth, node
 * count and decompressed bytes are enforced here, once, for every format.
 */
#ifndef FW_NODE_H
#define FW_NODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "error.h"
#include "guid.h"
#include "layout-step.h"
#include "view.h"

struct fw_layout;
struct fw_field;

enum fw_node_kind {
	FW_NODE_CAPSULE,
	FW_NODE_IMAGE,
	FW_NODE_REGION,
	FW_NODE_VOLUME,
	FW_NODE_FILE,
	FW_NODE_SECTION,
	FW_NODE_NVRAM_STORE,
	FW_NODE_VARIABLE,
	FW_NODE_PSP_DIRECTORY,
	FW_NODE_PSP_ENTRY,
	FW_NODE_PADDING,
	FW_NODE_FREE_SPACE,
	FW_NODE_KIND_COUNT
};
const char *fw_node_kind_name(enum fw_node_kind k);

enum fw_value_type { FW_VAL_UINT, FW_VAL_INT, FW_VAL_BOOL, FW_VAL_STR, FW_VAL_GUID, FW_VAL_BYTES };
enum fw_value_fmt { FW_FMT_DEC, FW_FMT_HEX };

/* One decoded field of a node ("Attributes" = 0x4FEFF, "HeaderChecksum valid" = true, ...), as
 * the field iterator and fw_node_field_get hand it out. A node does not keep these: it keeps
 * stored values (struct fw_field_rec, 32 bytes, 40 with a GUID or byte string) and, for a header
 * decoded by a layout, only the layout and where its bytes are; the header's fields are read
 * from those bytes when an output asks (see fw_field_iter). */
struct fw_field_value {
	const char *key;
	union {
		uint64_t u;
		int64_t i;
		bool b;
		const char *s;
		struct fw_guid g;
		struct {
			const uint8_t *p;
			size_t n;
		} bytes;
	} v;
	enum fw_value_type type : 8;
	enum fw_value_fmt fmt : 8;
};
struct fw_field_rec;

enum fw_diag_severity { FW_DIAG_INFO, FW_DIAG_WARN, FW_DIAG_ERROR };
const char *fw_diag_severity_name(enum fw_diag_severity s);

struct fw_diag {
	struct fw_diag *next;
	enum fw_diag_severity severity;
	uint64_t offset; /* absolute, or FW_OFFSET_UNKNOWN */
	const char *msg;
};

/* Node flags */
#define FW_NODE_F_OPAQUE 0x01       /* could not be parsed; kept as bytes with a diagnostic */
#define FW_NODE_F_COMPRESSED 0x02   /* children come from decompressed data */
#define FW_NODE_F_CHECKSUM_BAD 0x04 /* a checksum of this node did not match */
#define FW_NODE_F_HAS_HII 0x08      /* carries an HII form package (parsers/pe.c probe; ifr/ decodes) */

/* Fields ordered by size so the struct has no holes: 152 bytes. Offset and size are names for
 * data.base and data.len (one copy of each); depth fits 16 bits because fw_tree_new caps the
 * depth limit there; the last child is found through the tree (fw_node_last_child). */
struct fw_node {
	const char *type; /* subtype: "FFSv2", "DXE driver", "GUID defined", ... */
	union {
		struct fw_view data; /* the node's bytes: header + body */
		struct {
			const uint8_t *data_p_; /* data.p */
			size_t size;            /* data.len: header + body (+ tail) */
			uint64_t offset;        /* data.base: absolute in the input file, or FW_OFFSET_UNKNOWN */
		};
	};
	struct fw_view body; /* the decoded body (decompressed bytes for compressed sections) */
	const char *name;    /* UI section text or GUID-table name */
	const char *text;    /* secondary text (variable name, section description) */
	struct fw_node *parent, *first_child, *next;
	struct fw_field_rec *fields; /* read them with fw_field_first/fw_field_next */
	struct fw_diag *diags;
	void *ext; /* format-specific decoded model, owned by the tree's arena */
	struct fw_guid guid;
	uint32_t header_size;
	uint32_t nchildren;
	uint16_t depth;
	uint16_t flags;
	enum fw_node_kind kind : 8;
	bool has_guid;
};

struct fw_limits {
	unsigned max_depth;
	size_t max_nodes;
	uint64_t max_decompressed_total; /* all inflated bytes of one run */
	uint64_t max_decompressed_one;   /* one compressed section */
	size_t max_string;               /* one decoded string (UI name, variable name, HII string) */
};
/* Defaults documented in README "Limits"; lowered in fuzz builds (-DFW_FUZZING). */
struct fw_limits fw_limits_default(void);

struct fw_owned_buffer;
struct fw_interned;

struct fw_tree {
	struct fw_arena arena;
	struct fw_limits limits;
	struct fw_node *root;
	size_t node_count;
	uint64_t decompressed_total;
	size_t diag_count;
	struct fw_owned_buffer *buffers;
	struct fw_interned *interned; /* fw_tree_intern's table, made on first use */
	const char *input_path;
	const uint8_t *input;
	size_t input_len;
	/* where the last field and diagnostic were appended: a node's fields come in one burst,
	 * so appending finds its tail here without a tail pointer in every node */
	const struct fw_node *field_node, *diag_node;
	/* the node added last at each depth: its parent's last child, as no child is added to a
	 * parent without passing here (max_depth + 1 of them, made with the tree) */
	struct fw_node **last_at;
	struct fw_field_rec *field_tail;
	struct fw_diag *diag_tail;
};

struct fw_tree *fw_tree_new(const struct fw_limits *limits);
void fw_tree_free(struct fw_tree *t);

/* Create a node covering `data` under `parent` (NULL for the root). Fails with FW_E_LIMIT when
 * the depth or node limit is reached. */
struct fw_node *fw_node_add(struct fw_tree *t, struct fw_node *parent, enum fw_node_kind kind, const char *type,
			    const struct fw_view *data, struct fw_error *err);
/* The last child of n, or NULL: found through the tree's record of the node added last at each
 * depth, or by walking the children when n's were not the last added at their depth. */
struct fw_node *fw_node_last_child(const struct fw_tree *t, const struct fw_node *n);
void fw_node_set_guid(struct fw_node *n, const struct fw_guid *g);
void fw_node_set_name(struct fw_tree *t, struct fw_node *n, const char *name);
/* The tree's one copy of s (at most max bytes of it): equal strings share it. Field values and
 * names go through it; nothing may write to the result. */
const char *fw_tree_intern(struct fw_tree *t, const char *s, size_t max);

/* Fields, kept in insertion order. Keys must be string literals or arena strings. */
void fw_node_field_uint(struct fw_tree *t, struct fw_node *n, const char *key, uint64_t v, enum fw_value_fmt fmt);
void fw_node_field_int(struct fw_tree *t, struct fw_node *n, const char *key, int64_t v);
void fw_node_field_bool(struct fw_tree *t, struct fw_node *n, const char *key, bool v);
void fw_node_field_str(struct fw_tree *t, struct fw_node *n, const char *key, const char *s);
void fw_node_field_guid(struct fw_tree *t, struct fw_node *n, const char *key, const struct fw_guid *g);
void fw_node_field_bytes(struct fw_tree *t, struct fw_node *n, const char *key, const uint8_t *p, size_t len);
/* The fields of layout l over the bytes at p, read when asked for. The bytes must live as long
 * as the tree (the input or a buffer it owns): fw_layout_emit decides. */
void fw_node_field_layout(struct fw_tree *t, struct fw_node *n, const struct fw_layout *l, const uint8_t *p);
/* Replace the value of the stored string field `key`; false when there is none. */
bool fw_node_field_set_str(struct fw_tree *t, struct fw_node *n, const char *key, const char *s);
/* True when p[0..len) lies in the input or in a buffer the tree owns. */
bool fw_tree_holds(const struct fw_tree *t, const uint8_t *p, size_t len);

/* Walking a layout's visible fields in table order (layout.c), as fw_field_next reads them.
 * Nested structures are named "Outer.Inner"; an enum, flag set or bit field value is followed by
 * its "NAME name", "NAME flags" or "NAME bits" text. */
struct fw_layout_walk {
	const uint8_t *p; /* the structure's first byte */
	struct fw_layout_step step;
	size_t key_len[FW_LAYOUT_STEP_DEPTH]; /* of each frame's "Outer." prefix in key */
	uint64_t pending;           /* the value whose text comes next */
	const struct fw_field *pending_f;
	char key[256];
	char text[512];
};
void fw_layout_walk_start(struct fw_layout_walk *w, const struct fw_layout *l, const uint8_t *p);
bool fw_layout_walk_next(struct fw_layout_walk *w, struct fw_field_value *out);

/* Reading a node's fields in order:
 *   struct fw_field_iter it;
 *   for (const struct fw_field_value *f = fw_field_first(&it, n); f; f = fw_field_next(&it))
 * A value (and its key and text) lives until the next call. */
struct fw_field_iter {
	const struct fw_field_rec *rec;
	bool in_layout;
	struct fw_layout_walk walk;
	struct fw_field_value cur;
};
const struct fw_field_value *fw_field_first(struct fw_field_iter *it, const struct fw_node *n);
const struct fw_field_value *fw_field_next(struct fw_field_iter *it);
/* The first field named key, or NULL. The result (key and strings included) lives until eight
 * more calls: enough for a few lookups in one expression. */
const struct fw_field_value *fw_node_field_get(const struct fw_node *n, const char *key);

/* Diagnostics on a node (n may be NULL for tree-level ones). */
void fw_node_diag(struct fw_tree *t, struct fw_node *n, enum fw_diag_severity sev, uint64_t offset, const char *fmt,
		  ...) __attribute__((format(printf, 5, 6)));

/* Buffers (decompressed data) owned by the tree; freed with it. */
void fw_tree_own(struct fw_tree *t, void *buf, size_t len);
/* Count `n` more decompressed bytes against the limits; fails with FW_E_LIMIT. */
bool fw_tree_account_decompressed(struct fw_tree *t, uint64_t n, struct fw_error *err);
/* The most one more stream may inflate to: the per-section limit, or what is left of the total. */
size_t fw_tree_inflate_cap(const struct fw_tree *t);
/* A decompressor stopped at fw_tree_inflate_cap(): when what was left of the total was the cap,
 * reword its FW_E_LIMIT error to name the total limit ("over the limit of <what was left>" would
 * name no documented limit). */
void fw_tree_name_inflate_limit(const struct fw_tree *t, struct fw_error *e);

/* Depth-first pre-order walk; stop when the callback returns false. */
typedef bool (*fw_node_visit_fn)(struct fw_node *n, void *ctx);
bool fw_node_walk(struct fw_node *n, fw_node_visit_fn fn, void *ctx);
/* First node in pre-order with this GUID (and kind, unless kind == FW_NODE_KIND_COUNT). */
struct fw_node *fw_node_find_guid(struct fw_node *root, const struct fw_guid *g, enum fw_node_kind kind);
/* Path of GUIDs/names from the root, "Image/Volume 8C8C.../File 1234..." for messages. */
char *fw_node_describe(const struct fw_node *n, char *buf, size_t len);

#endif
