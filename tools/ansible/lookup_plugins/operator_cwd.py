# The folder ansible-playbook was started in, where the operator's relative paths
# (fwlens_deb=build/deb/..., fwlens_plan=plan.json) are meant from. Ansible itself takes relative
# paths from the playbook's folder (lookups, copy, commands run on the controller), and $PWD is
# not always set or current, so the playbooks ask the process: lookup('operator_cwd').
import os

from ansible.plugins.lookup import LookupBase

DOCUMENTATION = """
name: operator_cwd
short_description: the folder ansible-playbook runs in
description: The current working folder of the controller process, as one string.
"""


class LookupModule(LookupBase):
    def run(self, terms, variables=None, **kwargs):
        return [os.getcwd()]
