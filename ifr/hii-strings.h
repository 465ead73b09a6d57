/* HII string packages (UefiInternalFormRepresentation.h EFI_HII_STRING_PACKAGE_HDR; reference/ifr.md 1.3).
 *
 * A string package maps string ids (1..N, identical across the languages of one package list) to
 * UCS-2 text in one language. Every SIBT block type is decoded with EDK2's semantics (HiiDatabaseDxe
 * String.c): DUPLICATE aliases an earlier id, SKIP1/SKIP2 consume ids without text (the browser
 * falls back to another language), EXT1/2/4 lengths count the whole block, font blocks carry text
 * like their plain twins. SCSU text is read as 8-bit, as EDK2 itself does.
 */
#ifndef FW_HII_STRINGS_H
#define FW_HII_STRINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parsers/arena.h"
#include "parsers/error.h"
#include "parsers/view.h"

#define FW_HII_MAX_STRING_ID 0xFFFFu

struct fw_hii_strings {
	size_t offset;          /* package start inside its blob */
	uint64_t abs_offset;    /* in the input file, or FW_OFFSET_UNKNOWN */
	uint32_t length;        /* header included */
	const char *language;   /* RFC 4646 tag as stored ("en-US", "x-UEFI-AMI", ...) */
	bool config_language;   /* x-UEFI / x-i-UEFI keyword languages: not for display */
	uint16_t language_name; /* string id of the language's own name */
	uint32_t max_id;        /* highest id the blocks consume */
	uint32_t present;       /* ids with text */
	uint32_t skipped;       /* ids consumed by SKIP blocks */
	uint32_t duplicates;    /* DUPLICATE blocks */
	uint32_t fonts;         /* SIBT_FONT definitions */
	uint32_t scsu_non_ascii; /* SCSU strings with bytes >= 0x80 (decoded as Latin-1) */
	/* Where each id's text starts in the package ([max_id + 1]; 0 = no text in this language), with
	 * FW_HII_STRING_WIDE for UCS-2. Texts are decoded on first request (fw_hii_strings_get) into
	 * `text`, from the package bytes, which must outlive the strings, as blob views outlive a db. */
	const uint32_t *at;
	const char **text;      /* decoded so far ([max_id + 1], NULL until the first request) */
	const uint8_t *bytes;   /* the package */
	size_t bytes_len;
	struct fw_arena *arena; /* where decoded texts go */
	size_t buflen;          /* the longest text kept, NUL included */
};
#define FW_HII_STRING_WIDE 0x80000000u

/* Check that `pkg` (from its 4-byte header to its end) is a well-formed string package: type
 * 0x04, HdrSize >= 47, a printable NUL-terminated language tag that ends at HdrSize-1,
 * StringInfoOffset >= HdrSize, and a SIBT walk that ends in END with only zero bytes after it.
 * Cheap enough to run on every scan candidate. */
bool fw_hii_strings_check(const struct fw_view *pkg, struct fw_error *err);

/* Read a package: the checks of fw_hii_strings_check, then where each id's text is. Text is
 * decoded when asked for and lives in the arena; strings longer than max_string bytes are cut at a
 * character boundary. */
bool fw_hii_strings_parse(struct fw_arena *a, const struct fw_view *pkg, size_t max_string,
			  struct fw_hii_strings *out, struct fw_error *err);

/* Text of `id` (decoded now if not yet), or NULL when the id is 0, out of range or has no text here. */
const char *fw_hii_strings_text(const struct fw_hii_strings *s, uint16_t id);
static inline const char *fw_hii_strings_get(const struct fw_hii_strings *s, uint16_t id)
{
	if (!id || id > s->max_id || !s->at[id])
		return NULL;
	return s->text && s->text[id] ? s->text[id] : fw_hii_strings_text(s, id);
}
/* Does `id` have text here? (without decoding it) */
static inline bool fw_hii_strings_has(const struct fw_hii_strings *s, uint16_t id)
{
	return id && id <= s->max_id && s->at[id];
}

/* True for configuration (keyword) languages such as "x-UEFI", "x-UEFI-AMI", "x-i-UEFI". */
bool fw_hii_is_config_language(const char *tag);
/* Does `tag` match the requested language? Case-insensitive; "fr" matches "fr-FR". */
bool fw_hii_language_matches(const char *tag, const char *want);

#endif
