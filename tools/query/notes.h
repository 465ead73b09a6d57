/* The settings notes (v<N>-uefi-settings.md): what a person would otherwise write by hand about a
 * host's BIOS, kernel and GPU topology, generated from a source (and a previous one for the
 * changes section). Deterministic: the same inputs give the same bytes. */
#ifndef FW_NOTES_H
#define FW_NOTES_H

#include <stdbool.h>
#include <stdio.h>

#include "source.h"

struct fw_notes_options {
	const char *title;           /* overrides the generated title */
	struct fw_source *previous;  /* for "Changes since" (may be NULL) */
	/* Renders the changes between previous and src as markdown into f (the diff engine). */
	void (*render_changes)(FILE *f, struct fw_source *previous, struct fw_source *src, void *ctx);
	void *render_ctx;
};

/* Write the notes as markdown to f. */
void fw_notes_write(FILE *f, struct fw_source *src, const struct fw_notes_options *o);

#endif
