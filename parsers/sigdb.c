/* UEFI signature lists and the certificates in them. */
#include "sigdb.h"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "error.h"

static const struct {
	struct fw_guid guid;
	const char *name;
	size_t size; /* expected data size after the owner, 0 = variable */
} sig_types[] = {
	{FW_GUID_INIT(0xA5C059A1, 0x94E4, 0x4AA7, 0x87, 0xB5, 0xAB, 0x15, 0x5C, 0x2B, 0xF0, 0x72), "X509", 0},
	{FW_GUID_INIT(0xC1C41626, 0x504C, 0x4092, 0xAC, 0xA9, 0x41, 0xF9, 0x36, 0x93, 0x43, 0x28), "SHA256", 32},
	{FW_GUID_INIT(0x826CA512, 0xCF10, 0x4AC9, 0xB1, 0x87, 0xBE, 0x01, 0x49, 0x66, 0x31, 0xBD), "SHA1", 20},
	{FW_GUID_INIT(0x0B6E5233, 0xA65C, 0x44C9, 0x94, 0x07, 0xD9, 0xAB, 0x83, 0xBF, 0xC8, 0xBD), "SHA224", 28},
	{FW_GUID_INIT(0xFF3E5307, 0x9FD0, 0x48C9, 0x85, 0xF1, 0x8A, 0xD5, 0x6C, 0x70, 0x1E, 0x01), "SHA384", 48},
	{FW_GUID_INIT(0x093E0FAE, 0xA6C4, 0x4F50, 0x9F, 0x1B, 0xD4, 0x1E, 0x2B, 0x89, 0xC1, 0x9A), "SHA512", 64},
	{FW_GUID_INIT(0x3C5766E8, 0x269C, 0x4E34, 0xAA, 0x14, 0xED, 0x77, 0x6E, 0x85, 0xB3, 0xB6), "RSA2048", 256},
	{FW_GUID_INIT(0xE2B36190, 0x879B, 0x4A3D, 0xAD, 0x8D, 0xF2, 0xE7, 0xBB, 0xA3, 0x27, 0x84), "RSA2048_SHA256", 256},
	{FW_GUID_INIT(0x67F8444F, 0x8743, 0x48F1, 0xA3, 0x28, 0x1E, 0xAA, 0xB8, 0x73, 0x60, 0x80), "RSA2048_SHA1", 256},
	{FW_GUID_INIT(0x3BD2A492, 0x96C0, 0x4079, 0xB4, 0x20, 0xFC, 0xF9, 0x8E, 0xF1, 0x03, 0xED), "X509_SHA256", 48},
	{FW_GUID_INIT(0x7076876E, 0x80C2, 0x4EE6, 0xAA, 0xD2, 0x28, 0xB3, 0x49, 0xA6, 0x86, 0x5B), "X509_SHA384", 64},
	{FW_GUID_INIT(0x446DBF63, 0x2502, 0x4CDA, 0xBC, 0xFA, 0x24, 0x65, 0xD2, 0xB0, 0xFE, 0x9D), "X509_SHA512", 80},
	{FW_GUID_INIT(0x452E8CED, 0xDFFF, 0x4B8C, 0xAE, 0x01, 0x51, 0x18, 0x86, 0x2E, 0x68, 0x2C), "EXTERNAL_MANAGEMENT", 1},
};

const char *fw_sigdb_type_name(const struct fw_guid *type)
{
	for (size_t i = 0; i < sizeof(sig_types) / sizeof(sig_types[0]); i++)
		if (fw_guid_eq(type, &sig_types[i].guid))
			return sig_types[i].name;
	return NULL;
}

static size_t type_size(const struct fw_guid *type)
{
	for (size_t i = 0; i < sizeof(sig_types) / sizeof(sig_types[0]); i++)
		if (fw_guid_eq(type, &sig_types[i].guid))
			return sig_types[i].size;
	return 0;
}

static const struct fw_guid global_variable =
	FW_GUID_INIT(0x8BE4DF61, 0x93CA, 0x11D2, 0xAA, 0x0D, 0x00, 0xE0, 0x98, 0x03, 0x2B, 0x8C);
static const struct fw_guid image_security_database =
	FW_GUID_INIT(0xD719B2CB, 0x3D3A, 0x4596, 0xA3, 0xBC, 0xDA, 0xD0, 0x0E, 0x67, 0x65, 0x6F);

bool fw_sigdb_is_database(const char *name, const struct fw_guid *g)
{
	static const char *const global[] = {"PK", "KEK", "PKDefault", "KEKDefault", "dbDefault", "dbxDefault", "dbtDefault",
					     "dbrDefault"};
	static const char *const security[] = {"db", "dbx", "dbt", "dbr"};
	if (fw_guid_eq(g, &global_variable)) {
		for (size_t i = 0; i < sizeof(global) / sizeof(global[0]); i++)
			if (strcmp(name, global[i]) == 0)
				return true;
	} else if (fw_guid_eq(g, &image_security_database)) {
		for (size_t i = 0; i < sizeof(security) / sizeof(security[0]); i++)
			if (strcmp(name, security[i]) == 0)
				return true;
	}
	return false;
}

static char *name_str(const X509_NAME *nm)
{
	BIO *b = BIO_new(BIO_s_mem());
	if (!b)
		return fw_xstrdup("");
	X509_NAME_print_ex(b, nm, 0, XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB);
	char *p;
	long n = BIO_get_mem_data(b, &p);
	char *s = fw_xstrndup(p, n > 0 ? (size_t)n : 0);
	BIO_free(b);
	return s;
}

static void time_str(const ASN1_TIME *t, char out[24])
{
	struct tm tm;
	if (!t || !ASN1_TIME_to_tm(t, &tm)) {
		out[0] = '\0';
		return;
	}
	strftime(out, 24, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void decode_x509(struct fw_sigdb_entry *e)
{
	const unsigned char *p = e->data;
	X509 *x = d2i_X509(NULL, &p, (long)e->size);
	if (!x) {
		e->problem = "the X.509 certificate does not decode";
		return;
	}
	e->x509 = true;
	e->subject = name_str(X509_get_subject_name(x));
	e->issuer = name_str(X509_get_issuer_name(x));
	time_str(X509_get0_notBefore(x), e->not_before);
	time_str(X509_get0_notAfter(x), e->not_after);
	BIGNUM *bn = ASN1_INTEGER_to_BN(X509_get0_serialNumber(x), NULL);
	char *hex = bn ? BN_bn2hex(bn) : NULL;
	e->serial = fw_xstrdup(hex ? hex : "");
	OPENSSL_free(hex);
	BN_free(bn);
	EVP_PKEY *k = X509_get0_pubkey(x);
	if (k) {
		int id = EVP_PKEY_base_id(k);
		const char *kind = id == EVP_PKEY_RSA ? "RSA" : id == EVP_PKEY_EC ? "EC" : OBJ_nid2sn(id);
		e->key = fw_xasprintf("%s %d", kind ? kind : "?", EVP_PKEY_bits(k));
	}
	/* The fingerprint covers the DER as encoded, which may be shorter than the slot. */
	fw_sha256_hex(e->data, (size_t)(p - e->data), e->sha256);
	X509_free(x);
}

bool fw_sigdb_parse(const struct fw_view *v, struct fw_sigdb *out, struct fw_error *err)
{
	memset(out, 0, sizeof(*out));
	size_t off = 0, cap = 0;
	while (off < v->len) {
		char where[24];
		fw_offset_str(fw_view_abs(v, off), where, sizeof(where));
		if (!fw_view_has(v, off, FW_SIGDB_LIST_HEADER_SIZE)) {
			fw_sigdb_free(out);
			return fw_error_set(err, FW_E_TRUNCATED, "signature list at %s: 0x%zx bytes are too few for its header",
					    where, v->len - off);
		}
		struct fw_guid type;
		memcpy(type.b, v->p + off, 16);
		uint32_t list_size = fw_le32(v->p + off + 16), header_size = fw_le32(v->p + off + 20),
			 sig_size = fw_le32(v->p + off + 24);
		if (list_size < FW_SIGDB_LIST_HEADER_SIZE || list_size > v->len - off) {
			fw_sigdb_free(out);
			return fw_error_set(err, FW_E_INVALID, "signature list at %s: SignatureListSize 0x%x does not fit", where,
					    list_size);
		}
		size_t body = list_size - FW_SIGDB_LIST_HEADER_SIZE;
		if (header_size > body || sig_size < 16 || (body - header_size) % sig_size != 0) {
			fw_sigdb_free(out);
			return fw_error_set(err, FW_E_INVALID,
					    "signature list at %s: SignatureHeaderSize 0x%x and SignatureSize 0x%x do not "
					    "divide the list size 0x%x",
					    where, header_size, sig_size, list_size);
		}
		size_t count = (body - header_size) / sig_size, expect = type_size(&type);
		size_t pos = off + FW_SIGDB_LIST_HEADER_SIZE + header_size;
		for (size_t i = 0; i < count; i++, pos += sig_size) {
			if (out->count == cap) {
				cap = cap ? cap * 2 : 8;
				out->items = fw_xrealloc(out->items, cap * sizeof(*out->items));
			}
			struct fw_sigdb_entry *e = &out->items[out->count++];
			memset(e, 0, sizeof(*e));
			e->type = type;
			e->type_name = fw_sigdb_type_name(&type);
			memcpy(e->owner.b, v->p + pos, 16);
			e->data = v->p + pos + 16;
			e->size = sig_size - 16;
			e->offset = fw_view_abs(v, pos);
			e->list = out->lists;
			if (e->type_name && strcmp(e->type_name, "X509") == 0)
				decode_x509(e);
			else if (expect && e->size != expect)
				e->problem = "the entry size does not match its signature type";
			else if (!e->type_name)
				fw_sha256_hex(e->data, e->size, e->sha256); /* a fingerprint for unknown types */
		}
		out->lists++;
		off += list_size;
	}
	return true;
}

void fw_sigdb_free(struct fw_sigdb *db)
{
	for (size_t i = 0; i < db->count; i++) {
		free(db->items[i].subject);
		free(db->items[i].issuer);
		free(db->items[i].serial);
		free(db->items[i].key);
	}
	free(db->items);
	memset(db, 0, sizeof(*db));
}
