/* Choosing the writer by --format (see emit.h). */
#include "emit.h"

int fw_cli_emit_stream(struct fw_cli *cli, const struct fw_emit *e, const struct fw_emit_stream *stream)
{
	for (const struct fw_emit_writer *w = e->writers; w && w->format; w++)
		if (fw_cli_format_is(cli, w->format))
			return w->write(cli, e->ctx);
	bool json = fw_cli_format_is(cli, "json"), xml = !json && fw_cli_format_is(cli, "xml");
	if (stream && (json || xml)) {
		struct fw_json_stream s = {.head = stream->head(e->ctx), .list = stream->list, .next = stream->next,
					   .ctx = e->ctx, .sublist = stream->sublist, .sub_next = stream->sub_next};
		if (json)
			fw_cli_print_json_stream(cli, &s);
		else
			fw_cli_print_json_stream_as_xml(cli, &s, e->root);
	} else if (e->document && json)
		fw_cli_print_json(cli, e->document(e->ctx));
	else if (e->document && xml)
		fw_cli_print_json_as_xml(cli, e->document(e->ctx), e->root);
	else if (e->jsonl && fw_cli_format_is(cli, "jsonl"))
		e->jsonl(cli, e->ctx);
	else if (e->markdown && fw_cli_format_is(cli, "markdown"))
		e->markdown(cli, e->ctx);
	else if (e->text)
		e->text(cli, e->ctx);
	return 0;
}

int fw_cli_emit(struct fw_cli *cli, const struct fw_emit *e)
{
	return fw_cli_emit_stream(cli, e, NULL);
}
