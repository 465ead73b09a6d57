/* Choosing the writer by --format (see emit.h). */
#include "emit.h"

void fw_cli_emit(struct fw_cli *cli, const struct fw_emit *e)
{
	if (fw_cli_format_is(cli, "json"))
		fw_cli_print_json(cli, e->document(e->ctx));
	else if (fw_cli_format_is(cli, "xml"))
		fw_cli_print_json_as_xml(cli, e->document(e->ctx), e->root);
	else if (e->jsonl && fw_cli_format_is(cli, "jsonl"))
		e->jsonl(cli, e->ctx);
	else if (e->markdown && fw_cli_format_is(cli, "markdown"))
		e->markdown(cli, e->ctx);
	else
		e->text(cli, e->ctx);
}
