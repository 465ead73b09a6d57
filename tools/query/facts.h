/* The machine facts of a topic (the <fact> rules of topics.xml) answered from a machine: kernel
 * options, kernel log lines, module parameters, ACPI tables, PCI capabilities on the GPU paths,
 * IOMMU group types, CPU flags and device nodes. Each answer has a short status and the lines
 * that show it. */
#ifndef FW_FACTS_H
#define FW_FACTS_H

#include <stdbool.h>
#include <stddef.h>

#include "parsers/arena.h"
#include "source.h"
#include "topics.h"

enum fw_fact_state {
	FW_FACT_PRESENT,  /* set, present, found */
	FW_FACT_ABSENT,   /* not set, absent, no line */
	FW_FACT_UNKNOWN,  /* the machine does not say (not captured, unreadable) */
};
const char *fw_fact_state_name(enum fw_fact_state s); /* "present", "absent", "unknown" */

struct fw_fact_answer {
	const struct fw_topic *topic;
	const struct fw_topic_fact_rule *rule;
	enum fw_fact_state state;
	const char *summary;   /* "iommu=pt", "3 lines", "Y", "present, 1234 bytes", ... */
	const char **evidence; /* lines that show it (kernel log lines, devices, options) */
	size_t nevidence;
	size_t total;          /* evidence found before the cap on listed lines */
	/* "running": what the running kernel shows (/proc, /sys, this boot's log), which every fact kind
	 * here reads; "stored" is what a next boot would use (efivarfs, /etc) */
	const char *side;
	const char *boot; /* the boot it belongs to: proc/sys/kernel/random/boot_id, or NULL when not known */
};

struct fw_fact_answers {
	struct fw_arena arena;
	struct fw_fact_answer *items;
	size_t n;
};

/* Most evidence lines listed per fact. */
#define FW_FACT_MAX_EVIDENCE 12

/* Answer every fact rule of the topics from the source's machine (a source that is not a
 * machine answers nothing). */
void fw_facts_answer(struct fw_source *src, const struct fw_topic *const *topics, size_t ntopics,
		     struct fw_fact_answers *out);
void fw_fact_answers_free(struct fw_fact_answers *a);

#endif
