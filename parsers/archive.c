/* Firmware images inside vendor archives, read into memory through libarchive. */
#include "archive.h"

#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *chosen_member;

void fw_archive_choose_member(const char *name)
{
	chosen_member = name;
}

/* Member names go into one-line messages: control characters and other bytes shown as \xHH. */
static void append_name(char *out, size_t cap, const char *name)
{
	size_t used = strlen(out);
	for (const unsigned char *p = (const unsigned char *)name; *p && used + 5 < cap; p++) {
		if (*p >= 0x20 && *p < 0x7F)
			out[used++] = (char)*p;
		else
			used += (size_t)snprintf(out + used, cap - used, "\\x%02x", *p);
	}
	out[used] = '\0';
}

struct names {
	char text[1024];
	size_t count;
};

static void add_name(struct names *l, const char *name)
{
	if (l->count < 12) {
		if (l->count)
			append_name(l->text, sizeof(l->text), ", ");
		append_name(l->text, sizeof(l->text), name);
	}
	l->count++;
}

static const char *names_text(struct names *l)
{
	if (l->count > 12) {
		char more[48];
		snprintf(more, sizeof(more), " and %zu more", l->count - 12);
		append_name(l->text, sizeof(l->text), more);
	}
	return l->text;
}

/* The member's bytes, within what is left of the budget; false with err set. */
static bool read_member(struct archive *a, struct archive_entry *ae, const char *archive_name, const char *name,
			uint64_t left, uint8_t **out, size_t *outlen, struct fw_error *err)
{
	uint64_t cap = left < FW_ARCHIVE_MAX_MEMBER ? left : FW_ARCHIVE_MAX_MEMBER;
	/* a stated size is checked before anything is allocated */
	if (archive_entry_size_is_set(ae) && (uint64_t)archive_entry_size(ae) > cap)
		return fw_error_set(err, FW_E_LIMIT, "%s: member %s states %lld bytes, more than the archive's limits allow (%llu)",
				    archive_name, name, (long long)archive_entry_size(ae), (unsigned long long)cap);
	size_t alloc = archive_entry_size_is_set(ae) ? (size_t)archive_entry_size(ae) + 1 : 1 << 20, len = 0;
	uint8_t *buf = malloc(alloc);
	if (!buf)
		return fw_error_set(err, FW_E_INTERNAL, "%s: member %s: out of memory", archive_name, name);
	for (;;) {
		if (len == alloc) {
			size_t next = alloc * 2 > cap + 1 ? (size_t)cap + 1 : alloc * 2;
			uint8_t *grown = next > alloc ? realloc(buf, next) : NULL;
			if (!grown) {
				free(buf);
				if (next <= alloc)
					return fw_error_set(err, FW_E_LIMIT,
							    "%s: member %s inflates past %llu bytes (limits: %llu per member, "
							    "%llu in all, %d times the archive's size)",
							    archive_name, name, (unsigned long long)cap,
							    (unsigned long long)FW_ARCHIVE_MAX_MEMBER, (unsigned long long)FW_ARCHIVE_MAX_TOTAL,
							    FW_ARCHIVE_MAX_RATIO);
				return fw_error_set(err, FW_E_INTERNAL, "%s: member %s: out of memory", archive_name, name);
			}
			buf = grown;
			alloc = next;
		}
		la_ssize_t got = archive_read_data(a, buf + len, alloc - len);
		if (got < 0) {
			const char *why = archive_error_string(a);
			free(buf);
			return fw_error_set(err, FW_E_INVALID, "%s: member %s: %s", archive_name, name, why ? why : "unreadable");
		}
		if (got == 0)
			break;
		len += (size_t)got;
		if (len > cap) {
			free(buf);
			return fw_error_set(err, FW_E_LIMIT,
					    "%s: member %s inflates past %llu bytes (limits: %llu per member, %llu in all, %d "
					    "times the archive's size)",
					    archive_name, name, (unsigned long long)cap, (unsigned long long)FW_ARCHIVE_MAX_MEMBER,
					    (unsigned long long)FW_ARCHIVE_MAX_TOTAL, FW_ARCHIVE_MAX_RATIO);
		}
	}
	*out = buf;
	*outlen = len;
	return true;
}

static bool name_is(const char *member, const char *wanted)
{
	if (strcmp(member, wanted) == 0)
		return true;
	const char *base = strrchr(member, '/');
	return base && strcmp(base + 1, wanted) == 0;
}

/* A compressed file holding no archive: its one member is named after the file, less the suffix. */
static char *raw_member_name(const char *archive_name)
{
	const char *base = strrchr(archive_name, '/');
	base = base ? base + 1 : archive_name;
	const char *dot = strrchr(base, '.');
	return dot && dot != base ? fw_xstrndup(base, (size_t)(dot - base)) : fw_xstrdup(base);
}

bool fw_archive_extract(const uint8_t *p, size_t n, const char *name, fw_archive_recognise_fn recognise, uint8_t **out,
			size_t *outlen, char **member, struct fw_error *err)
{
	struct archive *a = archive_read_new();
	if (!a)
		return fw_error_set(err, FW_E_INTERNAL, "%s: out of memory opening the archive", name);
	/* formats and filters by name: never the ones that run an outside program */
	archive_read_support_filter_gzip(a);
	archive_read_support_filter_bzip2(a);
	archive_read_support_filter_xz(a);
	archive_read_support_filter_zstd(a);
	archive_read_support_format_zip(a);
	archive_read_support_format_7zip(a);
	archive_read_support_format_tar(a);
	archive_read_support_format_raw(a);
	uint64_t budget = (uint64_t)n * FW_ARCHIVE_MAX_RATIO + FW_ARCHIVE_RATIO_FLOOR;
	if (budget > FW_ARCHIVE_MAX_TOTAL)
		budget = FW_ARCHIVE_MAX_TOTAL;
	uint64_t total = 0;
	struct names all = {{0}, 0}, found = {{0}, 0};
	uint8_t *take = NULL;
	size_t take_len = 0;
	char *take_name = NULL;
	bool ok = archive_read_open_memory(a, p, n) == ARCHIVE_OK;
	if (!ok) {
		const char *why = archive_error_string(a);
		fw_error_set(err, FW_E_INVALID, "%s: not a readable archive: %s", name, why ? why : "unknown format");
	}
	struct archive_entry *ae;
	while (ok) {
		int rc = archive_read_next_header(a, &ae);
		if (rc == ARCHIVE_EOF)
			break;
		if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN) {
			const char *why = archive_error_string(a);
			ok = fw_error_set(err, FW_E_INVALID, "%s: member %zu: %s", name, all.count + 1, why ? why : "unreadable header");
			break;
		}
		if (all.count + 1 > FW_ARCHIVE_MAX_MEMBERS) {
			ok = fw_error_set(err, FW_E_LIMIT, "%s: more than %d members", name, FW_ARCHIVE_MAX_MEMBERS);
			break;
		}
		if (archive_entry_filetype(ae) != AE_IFREG || archive_entry_hardlink(ae))
			continue; /* folders, links and devices hold no image */
		bool raw = archive_format(a) == ARCHIVE_FORMAT_RAW;
		char *mname = raw ? raw_member_name(name) : fw_xstrdup(archive_entry_pathname(ae) ?: "");
		add_name(&all, mname);
		uint8_t *data = NULL;
		size_t len = 0;
		if (!read_member(a, ae, name, mname, budget - total, &data, &len, err)) {
			free(mname);
			ok = false;
			break;
		}
		total += len;
		bool wanted = chosen_member ? name_is(mname, chosen_member) : recognise(data, len);
		if (wanted && !take) {
			take = data;
			take_len = len;
			take_name = mname;
			add_name(&found, take_name);
			if (chosen_member)
				break;
			continue; /* the others are read too: a second image makes the choice the user's */
		}
		if (wanted)
			add_name(&found, mname);
		free(data);
		free(mname);
	}
	if (ok && !take && chosen_member)
		ok = fw_error_set(err, FW_E_NOT_FOUND, "%s: no member %s; it holds %s", name, chosen_member,
				  all.count ? names_text(&all) : "no files");
	else if (ok && !take)
		ok = fw_error_set(err, FW_E_INVALID, "%s: no firmware image fwlens recognises among its %zu files%s%s", name,
				  all.count, all.count ? ": " : "", names_text(&all));
	else if (ok && found.count > 1)
		ok = fw_error_set(err, FW_E_USAGE, "%s holds %zu firmware images: %s; pick one with --member NAME", name,
				  found.count, names_text(&found));
	archive_read_free(a);
	if (!ok) {
		free(take);
		free(take_name);
		return false;
	}
	*out = take;
	*outlen = take_len;
	*member = take_name;
	return true;
}

bool fw_archive_unwrap(struct fw_file *f, fw_archive_recognise_fn recognise, struct fw_error *err)
{
	const char *name = f->path ? f->path : "input";
	uint8_t *data;
	size_t len;
	char *member;
	if (!fw_archive_extract(f->data, f->len, name, recognise, &data, &len, &member, err))
		return false;
	char *path = fw_xasprintf("%s:%s", name, member);
	free(member);
	fw_file_close(f);
	f->data = data;
	f->len = len;
	f->mapped = false;
	f->path = path;
	return true;
}
