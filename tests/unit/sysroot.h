/* Building small machine folders for tests: files, links, PCI config spaces. */
#ifndef FW_TEST_SYSROOT_H
#define FW_TEST_SYSROOT_H

#include <stddef.h>
#include <stdint.h>

/* mkdtemp a folder under /tmp; returns its path (static buffer per call site is the caller's). */
char *fw_sysroot_new(char *buf /* "/tmp/fwlens-xxx.XXXXXX" */);
void fw_sysroot_remove(const char *dir);
void fw_sysroot_file(const char *dir, const char *rel, const void *data, size_t len);
void fw_sysroot_text(const char *dir, const char *rel, const char *text);
void fw_sysroot_link(const char *dir, const char *rel, const char *target);

/* 4 KiB config spaces */
void fw_sysroot_cfg_bridge(uint8_t *c, uint16_t vendor, uint16_t device, unsigned port_type, uint8_t sec, uint8_t sub,
			   uint16_t acs_cap, uint16_t acs_ctl);
void fw_sysroot_cfg_gpu(uint8_t *c, uint16_t vendor, uint16_t device, unsigned speed, unsigned width);
/* A PCI device: config, resource, numa node, optional driver and group; `path` is the sysfs
 * device path below sys/devices ("pci0000:40/0000:40:01.1/0000:41:00.0"). */
void fw_sysroot_pci(const char *dir, const char *path, const uint8_t *cfg, const char *resource, int numa,
		    const char *driver, int group);

#endif
