/* Dependency expressions (DXE, PEI and MM depex sections; PI specification, reference/formats.md
 * 3.3): a postfix opcode stream decoded to readable infix text. */
#ifndef FW_DEPEX_H
#define FW_DEPEX_H

#include "node.h"

/* Longest text kept, with its NUL; longer ones end in "...". */
#define FW_DEPEX_TEXT_MAX 2048

/* Text of the expression in b[0..n), e.g. "gEfiPcdProtocolGuid AND (NOT TRUE)", written to out
 * (FW_DEPEX_TEXT_MAX bytes) and returned. GUIDs are named from the GUID table. A malformed
 * stream still yields the text decoded so far; msg (msglen bytes) then says what is wrong, else
 * msg[0] == '\0'. */
const char *fw_depex_text(const uint8_t *b, size_t n, char *out, char *msg, size_t msglen);

#endif
