// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_emul.c - the commands the core answers itself, whatever the
 * device handler: REPORT LUNS, REQUEST SENSE, SPC-2 RESERVE/RELEASE,
 * PERSISTENT RESERVE IN/OUT (scst_pr_dev.c), and INQUIRY / REQUEST SENSE /
 * REPORT LUNS for a LUN that is not mapped.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>

#include "scst_priv.h"

/* The command's table row says so (SCST_OPF_CORE_EMUL, _ALUA_TPG). */
bool scst_cmd_core_emulated(const struct scst_cmd *cmd)
{
	/* REPORT/SET TARGET PORT GROUPS, scst_alua_cmd.c */
	if (cmd->cdb_facts & SCST_OPF_ALUA_TPG)
		return scst_alua_emulated(cmd);
	return cmd->cdb_facts & SCST_OPF_CORE_EMUL;
}

/* SPC-4 6.33 */
static void scst_report_luns(struct scst_cmd *cmd)
{
	struct scst_tgt_dev **tds = NULL;
	struct scst_cdb_err err;
	unsigned int n = 0, i;
	u64 *luns = NULL;
	u8 *buf = NULL;
	u8 select;
	int len;

	if (scst_check_report_luns_cdb(cmd->cdb, cmd->cdb_len, &select, &err)) {
		scst_set_cmd_error_from(cmd, &err);
		return;
	}

	if (select != SCST_REPORT_LUNS_WLUN_ONLY) {
		tds = scst_sess_get_tgt_devs(cmd->sess, &n);
		if (IS_ERR(tds))
			goto busy;
	}
	luns = kmalloc_array(n + 1, sizeof(*luns), GFP_KERNEL);
	len = 8 + 8 * n;
	buf = kzalloc(len, GFP_KERNEL);
	for (i = 0; i < n; i++) {
		if (luns)
			luns[i] = tds[i]->lun;
		scst_put_tgt_dev(tds[i]);
	}
	kfree(tds);
	if (!luns || !buf)
		goto busy;
	len = scst_build_report_luns(luns, n, buf, len);
	scst_copy_to_sg(cmd, buf, len);
	kfree(buf);
	kfree(luns);
	scst_sess_clear_ua(cmd->sess, SCST_SENSE_REPORTED_LUNS_CHANGED);
	return;

busy:
	kfree(buf);
	kfree(luns);
	scst_set_cmd_error_status(cmd, SCST_STATUS_BUSY);
}

/* SPC-4 6.39: a pending unit attention is reported, and cleared, here. */
static void scst_request_sense(struct scst_cmd *cmd)
{
	u8 sense[SCST_SENSE_BUFFERSIZE];
	bool desc = cmd->cdb[1] & 0x01;
	u32 code = SCST_SENSE_NO_SENSE;
	int len;

	if (!cmd->tgt_dev)
		code = SCST_SENSE_LUN_NOT_SUPPORTED;
	else if (!scst_tgt_dev_pop_ua(cmd->tgt_dev, &code))
		code = SCST_SENSE_NO_SENSE;
	len = scst_build_sense_code(sense, sizeof(sense), desc, code);
	if (len > 0)
		scst_copy_to_sg(cmd, sense, len);
}

/*
 * SPC-2 7.21/7.24 RESERVE(6/10) and RELEASE(6/10): one I_T nexus holds
 * the whole logical unit; third-party reservations are not supported.
 */
bool scst_check_reservation(struct scst_cmd *cmd)
{
	unsigned long flags;
	struct scst_device *dev = cmd->dev;
	bool ok;

	if (!READ_ONCE(dev->spc2_res.holder))
		return true;
	spin_lock_irqsave(&dev->dev_lock, flags);
	ok = !scst_spc2_res_conflict(&dev->spc2_res, cmd->sess,
				     cmd->cdb_flags);
	spin_unlock_irqrestore(&dev->dev_lock, flags);
	return ok;
}

/* The rules: scst_res.c. */
static void scst_reserve_release(struct scst_cmd *cmd)
{
	unsigned long flags;
	struct scst_device *dev = cmd->dev;
	bool reserve = cmd->op_id == SCST_OPID_RESERVE;
	struct scst_cdb_err err;
	int ret = 0;

	if (scst_spc2_check_cdb(cmd->cdb, cmd->cdb_len, &err)) {
		scst_set_cmd_error_from(cmd, &err);
		return;
	}
	spin_lock_irqsave(&dev->dev_lock, flags);
	if (reserve)
		ret = scst_spc2_reserve(&dev->spc2_res, cmd->sess);
	else
		scst_spc2_release(&dev->spc2_res, cmd->sess);
	spin_unlock_irqrestore(&dev->dev_lock, flags);
	/* other nexuses' commands admitted before it are checked again */
	if (reserve && !ret)
		scst_res_changed(dev);
	if (ret)
		scst_set_cmd_error_status(cmd, SCST_STATUS_RESERVATION_CONFLICT);
}

/*
 * Return SCST_EXEC_COMPLETED when the core executed @cmd (it is then
 * completed), SCST_EXEC_NOT_HANDLED when the handler is to, or
 * SCST_EXEC_NEED_THREAD for PERSISTENT RESERVE OUT, which sleeps (a
 * mutex, the APTPL file, PREEMPT AND ABORT's wait), anywhere but on
 * scst_exec_wq.
 */
enum scst_exec_res scst_emulate_cmd(struct scst_cmd *cmd)
{
	if (!scst_cmd_core_emulated(cmd))
		return SCST_EXEC_NOT_HANDLED;
	/* not scst_alua_emulated() again: the device may leave its group */
	if (scst_alua_tpg_cmd(cmd)) {
		scst_alua_emulate(cmd);
		scst_cmd_exec_done(cmd);
		return SCST_EXEC_COMPLETED;
	}
	switch (cmd->cdb[0]) {
	case SCST_OP_PERSISTENT_RESERVE_IN:
		scst_pr_in_exec(cmd);
		break;
	case SCST_OP_PERSISTENT_RESERVE_OUT:
		if (!cmd->on_exec_wq)
			return SCST_EXEC_NEED_THREAD;
		scst_pr_out_exec(cmd);
		break;
	case SCST_OP_REPORT_LUNS:
		scst_report_luns(cmd);
		break;
	case SCST_OP_REQUEST_SENSE:
		scst_request_sense(cmd);
		break;
	default:
		scst_reserve_release(cmd);
		break;
	}
	scst_cmd_exec_done(cmd);
	return SCST_EXEC_COMPLETED;
}

/* A command to a LUN that is not mapped (SCST_CDB_NO_LUN_OK ones only). */
void scst_emulate_no_lun(struct scst_cmd *cmd)
{
	struct scst_cdb_err err;
	bool evpd;
	u8 page;
	u8 buf[SCST_INQ_STD_LEN];
	int len;

	switch (cmd->cdb[0]) {
	case SCST_OP_INQUIRY:
		if (scst_check_inquiry_cdb(cmd->cdb, cmd->cdb_len, &evpd,
					   &page, &err)) {
			scst_set_cmd_error_from(cmd, &err);
			break;
		}
		if (evpd) {
			scst_set_cmd_error(cmd, SCST_SENSE_LUN_NOT_SUPPORTED);
			break;
		}
		/* SPC-4 6.6.2: peripheral qualifier 011b, type 1Fh */
		len = scst_build_inquiry_no_lun(buf, sizeof(buf));
		if (len > 0)
			scst_copy_to_sg(cmd, buf, min_t(int, len, sizeof(buf)));
		break;
	case SCST_OP_REPORT_LUNS:
		scst_report_luns(cmd);
		break;
	case SCST_OP_REQUEST_SENSE:
		scst_request_sense(cmd);
		break;
	default:
		scst_set_cmd_error(cmd, SCST_SENSE_LUN_NOT_SUPPORTED);
		break;
	}
}
