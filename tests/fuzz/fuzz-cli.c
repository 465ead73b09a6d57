/* Fuzz whole commands: the input's first byte picks a command line, the rest is the file it
 * reads (and standard input, for the "-" source of find, query and diff). Commands that take two
 * inputs (diff, notes --previous) get the part after a "\n--8<--\n" line as the second, or the
 * same bytes again. Every command that takes a file runs here with each of its writers, so the
 * statics of tools/cli/cmd-*.c (info counts, NVRAM, PSP and verify reports, settings as SCE and
 * markdown, find/query/diff writers, doctor and notes over a snapshot) see hostile models too. A
 * command may fail (exit 1, 3, 4) but must never crash, and never exit with a usage error: the
 * command lines are valid. */
#include <stdlib.h>
#include <string.h>

#include "fuzz-cli.h"
#include "parsers/error.h"

#define MAX_ARGS 10
static const char *const commands[][MAX_ARGS] = {
	{"tree", "-q", "--crc", "@"},
	{"tree", "-q", "--format", "json", "--crc", "@"},
	{"tree", "-q", "--format", "xml", "@"},
	{"tree", "-q", "--layout-only", "--no-search", "@"},
	{"info", "-q", "--format", "json", "@"},
	{"info", "-q", "@"},
	{"nvram", "-q", "--all-versions", "--format", "json", "@"},
	{"nvram", "-q", "--secureboot", "@"},
	{"nvram", "-q", "--format", "xml", "@"},
	{"ifr", "-q", "@"},
	{"ifr", "-q", "--format", "json", "--lang", "fr-FR", "@"},
	{"ifr", "-q", "--format", "ifrextractor", "@"},
	{"settings", "-q", "--format", "sce", "@"},
	{"settings", "-q", "--format", "markdown", "@"},
	{"settings", "-q", "--format", "jsonl", "--vars", "@", "@"},
	{"settings", "-q", "--format", "xml", "@"},
	{"psp", "-q", "--inflate", "--format", "json", "@"},
	{"psp", "-q", "@"},
	{"verify", "-q", "--format", "json", "@"},
	{"verify", "-q", "@"},
	{"acpi", "-q", "@"},
	{"acpi", "-q", "--format", "json", "@"},
	{"acpi", "-q", "--format", "xml", "--table", "IVRS,SRAT,APIC", "@"},
	{"acpi", "-q", "topo", "--no-dsl", "@"},
	{"acpi", "-q", "topo", "--no-dsl", "--format", "json", "@"},
	{"snapshot", "-q", "show", "--format", "json", "@"},
	{"doctor", "-q", "--no-cache", "--format", "json", "@"},
	{"notes", "-q", "@"},
	{"find", "-q", "@", "e|S", "--format", "json"},
	{"find", "-q", "-", "SMEE|IOMMU", "--in", "prompt,option", "--format", "markdown"},
	{"query", "-q", "--no-cache", "@", "--format", "json"},
	{"query", "-q", "--no-cache", "-", "--format", "markdown"},
	{"query", "-q", "--no-cache", "@", "--topic", "iommu,sev-snp", "--format", "xml"},
	{"diff", "-q", "@", "@2"},
	{"diff", "-q", "@", "@2", "--format", "json"},
	{"diff", "-q", "-", "@2.json", "--format", "markdown"},
	{"settings", "-q", "--format", "json", "@"},
	{"notes", "-q", "@", "--previous", "@2"},
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > (8u << 20))
		return 0;
	const char *const *args = commands[data[0] % NCOMMANDS];
	int nargs = 0;
	while (nargs < MAX_ARGS && args[nargs])
		nargs++;
	const uint8_t *a = data + 1, *b = a;
	size_t alen = size - 1, blen = alen;
	static const char cut[] = "\n--8<--\n";
	const uint8_t *sep = memmem(a, alen, cut, sizeof(cut) - 1);
	if (sep) {
		b = sep + sizeof(cut) - 1;
		blen = (size_t)(a + alen - b);
		alen = (size_t)(sep - a);
	}
	int rc = fw_fuzz_command2(a, alen, b, blen, args, nargs);
	if (rc == FW_EXIT_USAGE || rc > FW_EXIT_PENDING)
		abort(); /* a valid command line never gives a usage error; no exit code past the last exists */
	return 0;
}
