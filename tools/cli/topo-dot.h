/* The topology as a Graphviz graph (`acpi topo --format dot`, the picture of `notes --svg`). */
#ifndef FW_CLI_TOPO_DOT_H
#define FW_CLI_TOPO_DOT_H

#include <stdbool.h>
#include <stdio.h>

#include "parsers/error.h"

#include "acpi/topo.h"
#include "tools/host/host.h"

/* NUMA domains as clusters holding their root bridges (with bus range and PXM), the IOMMU each
 * bridge's buses go through, and with a machine (h not NULL) the PCI path down to every GPU:
 * switch and root ports with their ACS redirect state, the GPU with its owner (VM, container or
 * host from the machine's configurations, else the driver that holds it), IOMMU group and group
 * type, and a red edge for every requester/peer pair of IO_PAGE_FAULTs in the kernel log. */
void fw_topo_dot(FILE *f, const struct fw_acpi_topo *t, const struct fw_host *h);

/* Render a DOT file to SVG with Graphviz's `dot` (the program `dot_program`, or "dot" on PATH),
 * no shell, stopped after 60 s. A missing program is FW_E_DEPENDENCY ("install graphviz"). */
bool fw_topo_render_svg(const char *dot_program, const char *dot_path, const char *svg_path, struct fw_error *err);

#endif
