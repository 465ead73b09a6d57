/* What the p2p-host profile plans beyond BIOS settings: ACS redirect off on the switch downstream
 * ports between GPUs the host drives, as the kernel option pci=disable_acs_redir=BDF;BDF with the
 * machine's own ports. Linux sets request and completion redirect itself once an IOMMU is present
 * (pci_request_acs), so a BIOS setting cannot clear it; the kernel option can, per port.
 *
 * Only ports whose redirect bits are read set qualify, on the path between two host GPUs that
 * meet under one switch; a switch with a vfio device below it is left alone (clearing redirect
 * there would let a host GPU reach a VM's device without the IOMMU). Ports whose ACS control was
 * not captured make the answer "not known". */
#ifndef FW_PLAN_P2P_H
#define FW_PLAN_P2P_H

#include <stdbool.h>
#include <stddef.h>

#include "parsers/json-text.h"
#include "tools/host/host.h"

#define FW_P2P_PORTS_MAX 32

struct fw_p2p_acs_plan {
	const struct fw_pci_device *ports[FW_P2P_PORTS_MAX];
	size_t nports;
	char *option;      /* "pci=disable_acs_redir=0000:22:00.0;0000:22:01.0", or NULL when nothing to plan */
	char *why;         /* what was found: the pairs, the ports and their bits, or why nothing */
	bool unknown;      /* some port's ACS control was not captured */
	bool running;      /* the running command line has the option already */
};

void fw_p2p_acs_plan_make(const struct fw_host *h, struct fw_p2p_acs_plan *out);
void fw_p2p_acs_plan_free(struct fw_p2p_acs_plan *p);
/* {"option", "ports", "why", "unknown", "running"} */
json_t *fw_p2p_acs_plan_json(const struct fw_p2p_acs_plan *p);

#endif
