// Script File Name : plan.txt
// Written by fwlens 0.9.0: a change set for m.fwsnap in the layout of an AMISCE export
// Import: SCEWIN_64 /i /s FILE (Windows) or SCELNX_64 /i /s FILE (Linux); only these questions change
// No HIICrc32 line: not known from m.fwsnap (an AMISCE export given with --vars carries it)

Setup Question	= SMEE
Map String	= CbsCmnCpuSmeeBRH
Help String	= Control secure memory encryption enable Enabling both SMEE and SME-MK is not supported. Results in #GP
Token	=15	// Do NOT change this line
Offset	=33	// AmdSetupBRH 3A997502-647A-4C82-998E-52EF9486A247
Width	=01
BIOS Default	=[03]Auto 
Options	=[00]Disable	// Move "*" to the desired Option
         *[01]Enable
         [03]Auto

Setup Question	= SEV Control
Map String	= CbsPspSevCtrlBRH
Help String	= Can be used to disable SEV. To re-enable SEV, a POWER CYCLE is needed after selecting the 'Enable' option.
Token	=16	// Do NOT change this line
Offset	=34	// AmdSetupBRH 3A997502-647A-4C82-998E-52EF9486A247
Width	=01
BIOS Default	=[00]Enable 
Options	=*[00]Enable	// Move "*" to the desired Option
         [01]Disable

Setup Question	= SEV-ES ASID Space Limit
Map String	= CbsCmnCpuSevAsidSpaceLimitBRH
Help String	= SEV-ES and SNP guests must use ASIDs in the range 1 through (this value -1). SEV guests must use ASIDs in the range of this value through 1006. To have all ASIDs support SEV-ES or SNP guests, set this value to 1007. The default is 1: all SEV guests and no SEV-ES or SNP guests.
Token	=700F	// Do NOT change this line
Offset	=35	// AmdSetupBRH 3A997502-647A-4C82-998E-52EF9486A247
Width	=04
BIOS Default	=<1> 
Value	=<100>

