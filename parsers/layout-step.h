/* The frame stepper of layouts (layout.c), apart from layout.h because node.h keeps a walk by
 * value and layout.h includes node.h. */
#ifndef FW_LAYOUT_STEP_H
#define FW_LAYOUT_STEP_H

#include <stddef.h>
#include <stdint.h>

struct fw_field;
struct fw_layout;

/* Stepping through a layout's fields in table order, nested structures' fields in place: the
 * one stack of frames that the node-field walk (node.h: fw_layout_walk_next) and the ACPI values
 * (acpi/fields.h: fw_acpi_values_next) go through. Hidden fields are left out, and so are fields
 * (nested structures with all their fields) that end past `limit` bytes from the start.
 *   struct fw_layout_step s; fw_layout_step_start(&s, l); size_t off;
 *   for (const struct fw_field *f; (f = fw_layout_step_next(&s, len, &off));) ... */
#define FW_LAYOUT_STEP_DEPTH 6
struct fw_layout_step {
	unsigned depth; /* frames in use; 0 when done */
	struct fw_layout_frame {
		const struct fw_layout *l;
		const struct fw_field *parent; /* the FW_FT_STRUCT field it is, NULL for the outermost */
		uint32_t off;                  /* of its structure from the start */
		uint32_t next;                 /* the next field index */
	} frame[FW_LAYOUT_STEP_DEPTH];
};
void fw_layout_step_start(struct fw_layout_step *s, const struct fw_layout *l);
/* The next field, *off its offset from the start; NULL at the end. A nested structure is given
 * as it is entered: its fields follow in a frame of their own (s->frame[s->depth - 1], whose
 * `parent` is that field; no frame past FW_LAYOUT_STEP_DEPTH, then its fields are left out). */
const struct fw_field *fw_layout_step_next(struct fw_layout_step *s, size_t limit, size_t *off);

#endif
