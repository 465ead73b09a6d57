/* DSDT and SSDTs of the sample machine: ASL written from the topology and compiled by iasl,
 * run as a child process without a shell (reference/acpi.md 7).
 *
 * DSDT: the eight PCI root bridges (PNP0A08/PNP0A03) with _UID, _SEG, _BBN and _CRS (bus range,
 * 32- and 64-bit MMIO windows); the socket-1 bridges return _BBN through a method and a name
 * patched at boot, as AMD/AMI firmware does; the GPU root ports; the FCH UARTs the IVRS ACPI HID
 * entries name; the HPET. SSDT1 ("CPMPXM") gives each root bridge its _PXM in a separate
 * Scope (resolve by path, not nesting); AGESA builds it at boot for the NUMA mode in use, so the
 * capsule carries only the DSDT and SSDT2 ("CPMCPU", the processors, ACPI0007). */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build.h"
#include "topology.h"

extern char **environ;

static void dsdt_asl(const struct topology *t, struct sbuf *a)
{
	sb_printf(a, "/*\n * DSDT of the fwlens sample ESC8000A-E13 (K15PG-D24).\n * Written by fwlens-samples; "
		     "compiled with iasl.\n */\n");
	sb_printf(a, "DefinitionBlock (\"\", \"DSDT\", 2, \"ALASKA\", \"A M I \", 0x01072009)\n{\n");
	sb_printf(a, "    Name (_S5, Package (0x04) { 0x05, Zero, Zero, Zero })\n");
	sb_printf(a, "    Scope (_SB)\n    {\n");
	for (int i = 0; i < TOPO_RBS; i++) {
		const struct topo_rb *rb = &t->rbs[i];
		if (rb->socket == 1) {
			/* the bus number the firmware patches at boot, read through BNxx */
			sb_printf(a, "        Name (BR%02X, 0x%02X)\n", rb->bus, rb->bus);
			sb_printf(a, "        Method (BN%02X, 0, NotSerialized)\n        {\n            Return (BR%02X)\n        }\n\n",
				  rb->bus, rb->bus);
		}
		sb_printf(a, "        Device (%s)\n        {\n", rb->acpi_name);
		sb_printf(a, "            Name (_HID, EisaId (\"PNP0A08\"))\n");
		sb_printf(a, "            Name (_CID, EisaId (\"PNP0A03\"))\n");
		sb_printf(a, "            Name (_UID, 0x%02X)\n", i);
		sb_printf(a, "            Name (_SEG, Zero)\n");
		if (rb->socket == 1)
			sb_printf(a, "            Method (_BBN, 0, NotSerialized)\n            {\n                Return (BN%02X ())\n            }\n",
				  rb->bus);
		else
			sb_printf(a, "            Name (_BBN, 0x%02X)\n", rb->bus);
		sb_printf(a, "            Name (_CRS, ResourceTemplate ()\n            {\n");
		sb_printf(a,
			  "                WordBusNumber (ResourceProducer, MinFixed, MaxFixed, PosDecode,\n"
			  "                    0x0000, 0x%04X, 0x%04X, 0x0000, 0x%04X,,,)\n",
			  rb->bus, rb->bus_end, rb->bus_end - rb->bus + 1);
		if (i == 0)
			sb_printf(a, "                IO (Decode16, 0x0CF8, 0x0CF8, 0x01, 0x08,)\n"
				     "                WordIO (ResourceProducer, MinFixed, MaxFixed, PosDecode, EntireRange,\n"
				     "                    0x0000, 0x0000, 0x0CF7, 0x0000, 0x0CF8,,, , TypeStatic, DenseTranslation)\n");
		sb_printf(a,
			  "                DWordMemory (ResourceProducer, PosDecode, MinFixed, MaxFixed, NonCacheable, ReadWrite,\n"
			  "                    0x00000000, 0x%08X, 0x%08X, 0x00000000, 0x%08X,,, , AddressRangeMemory, TypeStatic)\n",
			  rb->mmio32_base, rb->mmio32_base + rb->mmio32_size - 1, rb->mmio32_size);
		sb_printf(a,
			  "                QWordMemory (ResourceProducer, PosDecode, MinFixed, MaxFixed, Prefetchable, ReadWrite,\n"
			  "                    0x0000000000000000, 0x%016llX, 0x%016llX, 0x0000000000000000, 0x%016llX,,, ,\n"
			  "                    AddressRangeMemory, TypeStatic)\n",
			  (unsigned long long)rb->mmio64_base, (unsigned long long)(rb->mmio64_base + rb->mmio64_size - 1),
			  (unsigned long long)rb->mmio64_size);
		sb_printf(a, "            })\n");
		for (int d = 0; d < t->ndevs; d++) {
			const struct topo_dev *dv = &t->devs[d];
			if (dv->rb != i || dv->kind != DEV_ROOT_PORT)
				continue;
			sb_printf(a, "            Device (GPP%X)\n            {\n", i);
			sb_printf(a, "                Name (_ADR, 0x%04X%04X)\n", dv->dev, dv->fn);
			sb_printf(a, "                Name (_PRW, Package (0x02) { 0x08, 0x04 })\n");
			sb_printf(a, "            }\n");
		}
		if (i == 0) {
			sb_printf(a, "            Device (SBRG)\n            {\n                Name (_ADR, 0x00140003)\n");
			sb_printf(a, "                Device (HPET)\n                {\n");
			sb_printf(a, "                    Name (_HID, EisaId (\"PNP0103\"))\n");
			sb_printf(a, "                    Name (_CRS, ResourceTemplate ()\n                    {\n");
			sb_printf(a, "                        Memory32Fixed (ReadOnly, 0xFED00000, 0x00000400,)\n");
			sb_printf(a, "                    })\n                }\n            }\n");
		}
		sb_printf(a, "        }\n\n");
	}
	for (int u = 0; u < 2; u++) {
		sb_printf(a, "        Device (FUR%d)\n        {\n", u);
		sb_printf(a, "            Name (_HID, \"AMDI0020\")\n            Name (_UID, 0x%02X)\n", u);
		sb_printf(a, "            Name (_CRS, ResourceTemplate ()\n            {\n");
		sb_printf(a, "                IRQ (Edge, ActiveHigh, Exclusive, ) {%d}\n", u ? 4 : 3);
		sb_printf(a, "                Memory32Fixed (ReadWrite, 0x%08X, 0x00001000,)\n", 0xFEDC9000u + 0x1000u * (unsigned)u);
		sb_printf(a, "            })\n        }\n");
	}
	sb_printf(a, "    }\n}\n");
}

static void ssdt_pxm_asl(const struct topology *t, struct sbuf *a)
{
	sb_printf(a, "/*\n * Proximity of the PCI root bridges (NPS%d), in scopes of their own.\n */\n", t->nps);
	sb_printf(a, "DefinitionBlock (\"\", \"SSDT\", 2, \"AMD\", \"CPMPXM\", 0x00000001)\n{\n");
	for (int i = 0; i < TOPO_RBS; i++)
		sb_printf(a, "    External (\\_SB.%s, DeviceObj)\n", t->rbs[i].acpi_name);
	for (int i = 0; i < TOPO_RBS; i++) {
		sb_printf(a, "\n    Scope (\\_SB.%s)\n    {\n", t->rbs[i].acpi_name);
		sb_printf(a, "        Method (_PXM, 0, NotSerialized)\n        {\n            Return (0x%02X)\n        }\n",
			  topo_rb_pxm(t, &t->rbs[i]));
		sb_printf(a, "    }\n");
	}
	sb_printf(a, "}\n");
}

static void ssdt_cpu_asl(struct sbuf *a)
{
	sb_printf(a, "/*\n * Processor devices, in MADT order.\n */\n");
	sb_printf(a, "DefinitionBlock (\"\", \"SSDT\", 2, \"AMD\", \"CPMCPU\", 0x00000001)\n{\n    Scope (\\_SB)\n    {\n");
	for (int cpu = 0; cpu < TOPO_CPUS; cpu++)
		sb_printf(a, "        Device (C%03X)\n        {\n            Name (_HID, \"ACPI0007\")\n            Name (_UID, 0x%02X)\n        }\n",
			  cpu, cpu);
	sb_printf(a, "    }\n}\n");
}

static bool have_iasl(void)
{
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/bin:/bin";
	char *copy = sample_strdup(path);
	for (char *save = NULL, *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save))
		if (access(sample_printf("%s/iasl", dir), X_OK) == 0)
			return true;
	return false;
}

/* Compile asl/<name>.asl to asl/<name>.aml; returns the AML (NULL when iasl is missing). */
static uint8_t *compile(const char *name, const struct sbuf *asl, size_t *len)
{
	char *rel = sample_printf("asl/%s.asl", name);
	out_write(rel, asl->p, asl->len);
	if (!have_iasl())
		return NULL;
	char *src = out_path(rel);
	char *prefix = out_path(sample_printf("asl/%s", name));
	char *log = out_path(sample_printf("asl/%s.iasl.log", name));
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
	char *argv[] = {"iasl", "-vs", "-p", prefix, src, NULL};
	pid_t pid;
	int rc = posix_spawnp(&pid, "iasl", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0)
		sample_die("cannot run iasl: %s", strerror(rc));
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			sample_die("waitpid: %s", strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		sample_die("iasl failed on %s (see %s)", src, log);
	unlink(log);
	char *aml = sample_printf("%s.aml", prefix);
	FILE *f = fopen(aml, "rb");
	if (!f)
		sample_die("iasl made no %s", aml);
	struct sbuf b = {0};
	uint8_t chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		sb_put(&b, chunk, n);
	fclose(f);
	return sb_take(&b, len);
}

void build_acpi_asl(struct variant *v)
{
	const struct topology *t = topology_for(v);
	struct sbuf a = {0};
	dsdt_asl(t, &a);
	v->dsdt = compile(sample_printf("dsdt-%s", v->bios_version), &a, &v->dsdt_len);
	sb_free(&a);
	ssdt_pxm_asl(t, &a);
	v->ssdt1 = compile(sample_printf("ssdt1-%s", v->bios_version), &a, &v->ssdt1_len);
	sb_free(&a);
	ssdt_cpu_asl(&a);
	v->ssdt2 = compile(sample_printf("ssdt2-%s", v->bios_version), &a, &v->ssdt2_len);
	sb_free(&a);
	if (!v->dsdt || !v->ssdt1 || !v->ssdt2) {
		static bool warned;
		if (!warned)
			fprintf(stderr, "fwlens-samples: iasl is not installed: DSDT and SSDTs left out of the samples\n");
		warned = true;
		free(v->dsdt);
		free(v->ssdt1);
		free(v->ssdt2);
		v->dsdt = v->ssdt1 = v->ssdt2 = NULL;
	}
}
