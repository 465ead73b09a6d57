/* libxml2, set up on first use. */
#ifndef FW_XML_INIT_H
#define FW_XML_INIT_H

/* libxml2 checked against the headers fwlens was built with and initialised, once (any thread),
 * by the first part of a command that parses or writes XML: most commands do neither, so start-up
 * does not pay for it. Every entry point that calls libxml2 calls this first. */
void fw_xml_init(void);

#endif
