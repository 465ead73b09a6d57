/* Choosing the writer by --format (see emit.h). */
#include "emit.h"

int fw_cli_emit(struct fw_cli *cli, const struct fw_emit *e)
{
	for (const struct fw_emit_writer *w = e->writers; w && w->format; w++)
		if (fw_cli_format_is(cli, w->format))
			return w->write(cli, e->ctx);
	if (e->document && fw_cli_format_is(cli, "json"))
		fw_cli_print_json(cli, e->document(e->ctx));
	else if (e->document && fw_cli_format_is(cli, "xml"))
		fw_cli_print_json_as_xml(cli, e->document(e->ctx), e->root);
	else if (e->jsonl && fw_cli_format_is(cli, "jsonl"))
		e->jsonl(cli, e->ctx);
	else if (e->markdown && fw_cli_format_is(cli, "markdown"))
		e->markdown(cli, e->ctx);
	else if (e->text)
		e->text(cli, e->ctx);
	return 0;
}
