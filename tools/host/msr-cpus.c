/* Per-CPU MSR reads (see msr-cpus.h). */
#include "msr-cpus.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

json_t *fw_probe_not_read(const char *source, const char *why)
{
	json_t *o = json_object();
	json_object_set_new(o, "read", json_false());
	json_object_set_new(o, "source", json_string(source));
	json_object_set_new(o, "why", json_string(why));
	return o;
}

json_t *fw_probe_hex(uint64_t v)
{
	char b[24];
	snprintf(b, sizeof(b), "0x%" PRIx64, v);
	return json_string(b);
}

int fw_msr_open(const char *dev, char *why, size_t why_size)
{
	int fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		snprintf(why, why_size, "%s: %s%s", dev, strerror(errno),
			 errno == ENOENT ? " (the msr module is not loaded)" : "");
	return fd;
}

/* Every register of one CPU into c; false with why filled when one could not be read. */
static bool read_cpu(const char *dev, const struct fw_msr_reg *regs, size_t n, json_t *c, char *why, size_t why_size)
{
	int fd = fw_msr_open(dev, why, why_size);
	if (fd < 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		uint64_t v;
		if (pread(fd, &v, sizeof(v), regs[i].msr) != (ssize_t)sizeof(v)) {
			/* a short read sets no errno: name the register instead */
			snprintf(why, why_size, "%s: MSR %" PRIX32 ": %s", dev, regs[i].msr,
				 errno ? strerror(errno) : "short read");
			close(fd);
			return false;
		}
		json_object_set_new(c, regs[i].name, fw_probe_hex(v));
	}
	close(fd);
	return true;
}

json_t *fw_msr_per_cpu(const char *source, const struct fw_msr_reg *regs, size_t n)
{
	DIR *d = opendir("/dev/cpu");
	if (!d)
		return fw_probe_not_read(source, "/dev/cpu: no such folder (the msr module is not loaded)");
	json_t *cpus = json_array();
	size_t listed = 0;
	char why[200] = "";
	struct dirent *e;
	while ((e = readdir(d))) {
		char *end;
		errno = 0;
		unsigned long cpu = strtoul(e->d_name, &end, 10);
		if (*end || end == e->d_name || errno)
			continue;
		listed++;
		char dev[64];
		snprintf(dev, sizeof(dev), "/dev/cpu/%lu/msr", cpu);
		json_t *c = json_object();
		json_object_set_new(c, "cpu", json_integer((json_int_t)cpu));
		errno = 0;
		if (read_cpu(dev, regs, n, c, why, sizeof(why)))
			json_array_append_new(cpus, c);
		else
			json_decref(c);
	}
	closedir(d);
	if (!json_array_size(cpus)) {
		json_decref(cpus);
		return fw_probe_not_read(source, why[0] ? why : "no CPU msr nodes");
	}
	json_t *o = json_object();
	json_object_set_new(o, "read", json_true());
	json_object_set_new(o, "source", json_string(source));
	json_object_set_new(o, "cpus_listed", json_integer((json_int_t)listed));
	json_object_set_new(o, "cpus", cpus);
	return o;
}
