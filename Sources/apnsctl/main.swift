// The executable is only this: every command, option and message lives in APNSCtlCommands, where tests
// reach them in-process.
import APNSCtlCommands

APNSCtl.main()
