/* UEFI signature databases (PK, KEK, db, dbx, dbt, dbr and their *Default copies): a sequence of
 * EFI_SIGNATURE_LIST {GUID SignatureType, u32 SignatureListSize, u32 SignatureHeaderSize,
 * u32 SignatureSize, header, EFI_SIGNATURE_DATA[] {GUID SignatureOwner, data}}
 * (edk2 MdePkg/Include/Guid/ImageAuthentication.h). X.509 certificates are decoded with libcrypto. */
#ifndef FW_SIGDB_H
#define FW_SIGDB_H

#include <stdbool.h>

#include "guid.h"
#include "hash.h"
#include "view.h"

#define FW_SIGDB_LIST_HEADER_SIZE 28

struct fw_sigdb_entry {
	struct fw_guid type;     /* the list's SignatureType */
	const char *type_name;   /* "X509", "SHA256", ... or NULL */
	struct fw_guid owner;
	const uint8_t *data;     /* the signature data after the owner GUID */
	size_t size;
	uint64_t offset;         /* absolute offset of the EFI_SIGNATURE_DATA, or FW_OFFSET_UNKNOWN */
	unsigned list;           /* index of the list it came from */
	/* X.509 entries */
	bool x509;               /* decoded as a certificate */
	char *subject, *issuer;  /* RFC 2253 */
	char *serial;            /* hex */
	char not_before[24], not_after[24]; /* "2011-06-24T20:41:29Z" */
	char *key;               /* "RSA 2048", "EC 256", ... */
	char sha256[FW_SHA256_HEX_LEN]; /* of the DER certificate (or of the data of an unknown type) */
	const char *problem;     /* why an entry could not be decoded */
};

struct fw_sigdb {
	struct fw_sigdb_entry *items;
	size_t count;
	unsigned lists;
};

/* Variables that hold signature databases (by name and GUID). */
bool fw_sigdb_is_database(const char *name, const struct fw_guid *g);
/* Decode every list; fails on a list whose sizes do not fit (the error names its offset). */
bool fw_sigdb_parse(const struct fw_view *v, struct fw_sigdb *out, struct fw_error *err);
void fw_sigdb_free(struct fw_sigdb *db);
const char *fw_sigdb_type_name(const struct fw_guid *type);

#endif
