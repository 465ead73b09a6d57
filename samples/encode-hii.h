/* HII packages for the sample modules: a string table shared by the form packages of one package
 * list (ids in order of first use, identical text shares one id, as StrGather does with shared
 * tokens), string packages per language, and a small IFR emitter over ifr/ifr-layout.h. */
#ifndef SAMPLES_HII_H
#define SAMPLES_HII_H

#include "sample.h"

/* ---- strings -------------------------------------------------------------------------------- */
enum { LANG_EN, LANG_FR, LANG_ZH, LANG_CONFIG, LANG__COUNT };
struct strtab {
	char **text[LANG__COUNT]; /* text[lang][id - 1]; NULL = no text in that language (SKIP2) */
	size_t count, cap;
};
/* The id of an English text (added on first use; "" is a real, empty string). */
uint16_t str_id(struct strtab *t, const char *en);
/* A string that exists only in the configuration language (x-UEFI-AMI keyword), or set the keyword
 * of an existing id. */
void str_set_lang(struct strtab *t, uint16_t id, int lang, const char *text);
void str_free(struct strtab *t);
/* Translations come from a small built-in dictionary; the rest is skipped per language. */
void str_translate(struct strtab *t);
/* The string packages of the table, one per language in `langs` order, appended to `out`. */
void str_packages(struct strtab *t, const int *langs, size_t nlangs, struct sbuf *out);
extern const char *const lang_tags[LANG__COUNT];

/* ---- IFR ------------------------------------------------------------------------------------ */
struct ifr {
	struct sbuf b;
	int depth;
};
/* Append an opcode of `len` bytes (zeroed) with the scope bit as asked; returns its offset. */
size_t ifr_op(struct ifr *f, uint8_t opcode, size_t len, bool scope);
void ifr_end(struct ifr *f);
static inline uint8_t *ifr_at(struct ifr *f, size_t off) { return f->b.p + off; }

/* ---- packages ------------------------------------------------------------------------------- */
/* Wrap IFR bytes in a form package. */
void hii_form_package(struct sbuf *out, const struct sbuf *ifr);
/* An HII package list: header(guid), the packages, END. */
uint8_t *hii_package_list(const struct fw_guid *guid, const struct sbuf *packages, size_t *len);

#endif
