/* fwlens decompress: one compressed section body in, the plain bytes out. */
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "parsers/decompress.h"
#include "parsers/file.h"
#include "parsers/node.h"
#include "parsers/nearest.h"

static const struct fw_option decompress_options[] = {
	{"algo", 'a', "ALGO", "the algorithm: efi11, tiano, lzma, lzmaf86, brotli, zlib-amd or gzip",
	 "efi11,tiano,lzma,lzmaf86,brotli,zlib-amd,gzip"},
	{0},
};

static int run_decompress(struct fw_cli *cli)
{
	const char *name = fw_cli_opt(cli, "algo");
	if (!name)
		return fw_cli_usage_error(cli, "--algo is required (efi11, tiano, lzma, lzmaf86, brotli, zlib-amd, gzip)");
	enum fw_algo a;
	if (!fw_algo_from_name(name, &a)) {
		char hint[160];
		return fw_cli_usage_error(cli, "--algo takes efi11, tiano, lzma, lzmaf86, brotli, zlib-amd or gzip, not '%s'%s",
					  name, fw_nearest_hint(name, "efi11,tiano,lzma,lzmaf86,brotli,zlib-amd,gzip", hint, sizeof(hint)));
	}
	int rc = fw_cli_refuse_binary_terminal(cli);
	if (rc)
		return rc;
	struct fw_file in;
	struct fw_error err;
	fw_error_clear(&err);
	if (!fw_file_open(cli->argv[0], &in, &err))
		return fw_cli_fail(cli, &err);
	uint8_t *out = NULL;
	size_t len = 0;
	struct fw_inflate_info info;
	struct fw_limits limits = fw_limits_default();
	if (!fw_decompress(a, in.data, in.len, limits.max_decompressed_one, &out, &len, &info, &err)) {
		fw_error_prefix(&err, "%s: ", cli->argv[0]);
		rc = fw_cli_fail(cli, &err);
	} else {
		if (len && fwrite(out, 1, len, fw_cli_out(cli)) != len) {
			fw_error_errno(&err, "%s: write failed", cli->output_path ? cli->output_path : "standard output");
			rc = fw_cli_fail(cli, &err);
		}
		fw_log_info(cli, "%s: %zu bytes of %s data in, %zu bytes out%s", cli->argv[0], in.len, fw_algo_title(a), len,
			    info.skipped ? " (the stream starts 4 bytes in)" : "");
		free(out);
	}
	fw_file_close(&in);
	return rc;
}

FW_COMMAND(decompress,
	.synopsis = "IN --algo ALGO [-o OUT]",
	.summary = "Decompress one section body (EFI 1.1, Tiano, LZMA, LZMA F86, Brotli, AMD zlib, GZip)",
	.description =
		"Reads IN, the body of a compressed section as `fwlens extract --section body` or UEFITool "
		"writes it, with the algorithm's own header, and writes the plain bytes to OUT (or standard "
		"output, never a terminal). The formats: efi11 and tiano, an 8-byte header (compressed and "
		"original size) then the bit stream, the two differing in one field width; lzma, the 13-byte "
		"LZMA header (properties, dictionary size, uncompressed size) then the stream, also with "
		"Intel's 4 leading bytes; lzmaf86, the same with the x86 BCJ filter; brotli, 16 bytes of "
		"sizes then the stream; zlib-amd, AMD's 0x100-byte header then zlib; gzip, a gzip member. "
		"Output is capped at 512 MiB; corrupt data is an error naming how far decoding got.",
	.options = decompress_options,
	.examples = "fwlens decompress --algo lzma body.bin -o plain.bin\n"
		    "fwlens decompress -a tiano section.body > plain.bin",
	.min_args = 1, .max_args = 1, .run = run_decompress, .order = 14);
