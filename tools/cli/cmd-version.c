/* fwlens version: the build and its dependency versions. */
#include <brotli/decode.h>
#include "parsers/json-text.h"
#include <libxml/xmlversion.h>
#include <lzma.h>
#include <openssl/crypto.h>
#include <stdio.h>
#include <zlib.h>

#include "cli.h"
#include "emit.h"

static json_t *version_document(const void *ctx)
{
	uint32_t b = BrotliDecoderVersion();
	json_t *doc = json_object();
	json_object_set_new(doc, "fwlens", json_string(FWLENS_VERSION));
	json_t *deps = json_object();
	json_object_set_new(deps, "liblzma", json_string(lzma_version_string()));
	json_object_set_new(deps, "zlib", json_string(zlibVersion()));
	char bro[32];
	snprintf(bro, sizeof(bro), "%u.%u.%u", b >> 24, (b >> 12) & 0xFFF, b & 0xFFF);
	json_object_set_new(deps, "brotli", json_string(bro));
	json_object_set_new(deps, "openssl", json_string(OpenSSL_version(OPENSSL_VERSION)));
	json_object_set_new(deps, "libxml2", json_string(LIBXML_DOTTED_VERSION));
	json_object_set_new(deps, "jansson", json_string(JANSSON_VERSION));
	json_object_set_new(doc, "dependencies", deps);
	return doc;
}

static void version_text(struct fw_cli *cli, const void *ctx)
{
	uint32_t b = BrotliDecoderVersion();
	FILE *f = fw_cli_out(cli);
	fprintf(f, "fwlens %s\n", FWLENS_VERSION);
	fprintf(f, "  liblzma  %s\n", lzma_version_string());
	fprintf(f, "  zlib     %s\n", zlibVersion());
	fprintf(f, "  brotli   %u.%u.%u\n", b >> 24, (b >> 12) & 0xFFF, b & 0xFFF);
	fprintf(f, "  openssl  %s\n", OpenSSL_version(OPENSSL_VERSION));
	fprintf(f, "  libxml2  %s\n", LIBXML_DOTTED_VERSION);
	fprintf(f, "  jansson  %s\n", JANSSON_VERSION);
}

static int run_version(struct fw_cli *cli)
{
	fw_cli_emit(cli, &(struct fw_emit){"version", version_document, version_text, NULL, NULL, NULL, NULL});
	return 0;
}

FW_COMMAND(version,
	.synopsis = "[--format text|json|xml]",
	.summary = "Show the fwlens version and the versions of the libraries it was built with",
	.description =
		"Prints the fwlens version and the version of each library it decodes with: liblzma (LZMA sections), "
		"zlib (AMD zlib sections, CRC32), brotli (Brotli sections), OpenSSL (SHA-256 and capsule signatures), "
		"libxml2 (XML output and the topic rules) and jansson (JSON). 'fwlens --version' and 'fwlens -V' are "
		"the same command. Quote it in bug reports.",
	.formats = "text,json,xml",
	.examples = "fwlens --version\nfwlens version --format json",
	.min_args = 0, .max_args = 0, .run = run_version, .order = 100);
