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
	const char *topology_picture; /* path of a drawing of the topology to link from its section, or NULL */
};

/* Write the notes as markdown to f. */
void fw_notes_write(FILE *f, struct fw_source *src, const struct fw_notes_options *o);

/* notes-host.c: the GPUs with their owners, NUMA layout, the checks' evidence, and the blocks
 * the user writes (between "<!-- fwlens:keep NAME -->" and "<!-- fwlens:end NAME -->"). */
void fw_notes_gpus(FILE *f, struct fw_source *src);
void fw_notes_numa(FILE *f, struct fw_source *src);
void fw_notes_evidence(FILE *f, const struct fw_doctor_report *all);
void fw_notes_user_blocks(FILE *f);
/* The fresh notes with every marked block's content taken from the old file (same name);
 * old blocks the fresh text has no place for are appended. `old` may be NULL. Malloc'd. */
char *fw_notes_keep_user_blocks(const char *old, size_t oldlen, const char *fresh, size_t freshlen, size_t *outlen);
/* notes-keep.c: the fresh notes merged with the file they replace (`old`, NULL when none, read
 * from `path`; path NULL: standard output): keep blocks by name, and every line the admin wrote
 * outside them in place (*kept counts them); in a file, a last line lists the hashes of the
 * generated lines, so the next run tells them apart. False (FW_E_UNWRITABLE, naming the file and the line) when the admin's lines cannot be
 * placed: the caller writes nothing. *out is malloc'd. */
bool fw_notes_merge(const char *old, size_t oldlen, const char *path, const char *fresh, size_t freshlen, char **out,
		    size_t *outlen, size_t *kept, struct fw_error *err);

#endif
