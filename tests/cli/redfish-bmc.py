#!/usr/bin/env python3
"""A stand-in BMC for tests/cli/t0032-ansible.sh: the Redfish resources that
community.general.redfish_config walks to set BIOS attributes (service root, Systems, one
system, its Bios with current Attributes, and the Bios settings object named by
@Redfish.Settings), over HTTPS (the module speaks nothing else) on a free local port.

    redfish-bmc.py STATE_DIR CERT.pem KEY.pem
writes STATE_DIR/port once listening; each PATCH of the settings object is appended to
STATE_DIR/patches.jsonl as {"path", "if_match", "body"}. It answers 412 to a PATCH without the
ETag in If-Match, as AMI BMCs do."""
import json
import os
import ssl
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

STATE = sys.argv[1]
ETAG = 'W/"bios-settings-1"'
RESOURCES = {
    "/redfish/v1": {"@odata.id": "/redfish/v1", "Vendor": "AMI", "Systems": {"@odata.id": "/redfish/v1/Systems"}},
    "/redfish/v1/Systems": {"Members": [{"@odata.id": "/redfish/v1/Systems/Self"}]},
    "/redfish/v1/Systems/Self": {"Id": "Self", "Bios": {"@odata.id": "/redfish/v1/Systems/Self/Bios"}},
    "/redfish/v1/Systems/Self/Bios": {
        "Id": "Bios",
        "Attributes": {"CbsCmnSmeeCtrl": "Auto", "CbsCmnSnpMemCover": "Disabled", "PCIS007": "Enabled",
                       "CbsDfCmnDramNpsBRH": "NPS1"},
        "@Redfish.Settings": {"SettingsObject": {"@odata.id": "/redfish/v1/Systems/Self/Bios/SD"}},
    },
    "/redfish/v1/Systems/Self/Bios/SD": {"Id": "SD", "@odata.etag": ETAG, "Attributes": {}},
}


class BMC(BaseHTTPRequestHandler):
    def reply(self, code, doc=None):
        body = json.dumps(doc).encode() if doc is not None else b""
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        if self.path.rstrip("/") == "/redfish/v1/Systems/Self/Bios/SD":
            self.send_header("ETag", ETAG)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        doc = RESOURCES.get(self.path.rstrip("/"))
        self.reply(200 if doc else 404, doc or {"error": "not found"})

    def do_PATCH(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"null")
        with open(os.path.join(STATE, "patches.jsonl"), "a") as f:
            f.write(json.dumps({"path": self.path, "if_match": self.headers.get("If-Match"), "body": body}) + "\n")
        if self.path.rstrip("/") != "/redfish/v1/Systems/Self/Bios/SD":
            self.reply(405, {"error": "not the settings object"})
        elif self.headers.get("If-Match") not in (ETAG, ETAG.strip('"')):
            self.reply(412, {"error": "If-Match"})
        else:
            self.reply(204)

    def log_message(self, *args):
        pass


server = HTTPServer(("127.0.0.1", 0), BMC)
tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
tls.load_cert_chain(sys.argv[2], sys.argv[3])
server.socket = tls.wrap_socket(server.socket, server_side=True)
with open(os.path.join(STATE, "port.tmp"), "w") as f:
    f.write(str(server.server_address[1]))
os.rename(os.path.join(STATE, "port.tmp"), os.path.join(STATE, "port"))
server.serve_forever()
