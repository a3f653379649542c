// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_registry.c - the registries of the model: target drivers
 * (templates), device handlers and devices, with scst_mutex, which
 * serializes every configuration change; and the view the management
 * layer registers (struct scst_view_ops).
 *
 * What a driver or handler registers here is shown by the view: each
 * registration tells it through scst_view, as scst_tgt.c does for targets,
 * sessions, groups and LUNs, so that this layer never calls the sysfs
 * files above it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>

#include "scst_priv.h"

/* Serializes configuration changes; see scst_priv.h. */
DEFINE_MUTEX(scst_mutex);
LIST_HEAD(scst_template_list);
LIST_HEAD(scst_dev_type_list);
LIST_HEAD(scst_dev_list);

/*
 * The view of the model's objects (the sysfs tree). Registered by the
 * management layer's init before any driver can register and unregistered
 * at its exit after the last one has gone: it is there whenever an object
 * exists, so the model calls it without a check.
 */
const struct scst_view_ops *scst_view;

void scst_view_register(const struct scst_view_ops *ops)
{
	scst_view = ops;
}

void scst_view_unregister(void)
{
	scst_view = NULL;
}

struct scst_tgt_template *scst_find_template(const char *name)
{
	struct scst_tgt_template *t;

	lockdep_assert_held(&scst_mutex);
	list_for_each_entry(t, &scst_template_list, list_entry)
		if (strcmp(t->name, name) == 0)
			return t;
	return NULL;
}

struct scst_dev_type *scst_find_dev_type(const char *name)
{
	struct scst_dev_type *dt;

	lockdep_assert_held(&scst_mutex);
	list_for_each_entry(dt, &scst_dev_type_list, list_entry)
		if (strcmp(dt->name, name) == 0)
			return dt;
	return NULL;
}

/*
 * Devices being unregistered: out of scst_dev_list, so no new LUN finds
 * them, but their names stay taken until their last command (a PERSISTENT
 * RESERVE OUT writing the APTPL file of that name, say) has ended and
 * their sysfs directory is gone. scst_mutex.
 */
static LIST_HEAD(scst_dev_dying_list);

/*
 * Whether a device of that name exists or is still being removed: -EEXIST
 * or -EBUSY after a log line, else 0. scst_mutex.
 */
static int scst_dev_name_taken(const char *name)
{
	struct scst_device *dev;

	if (scst_find_device(name)) {
		pr_err("device %s already exists\n", name);
		return -EEXIST;
	}
	list_for_each_entry(dev, &scst_dev_dying_list, list_entry) {
		if (strcmp(dev->name, name) == 0) {
			pr_err("device %s is still being removed\n", name);
			return -EBUSY;
		}
	}
	return 0;
}

struct scst_device *scst_find_device(const char *name)
{
	struct scst_device *dev;

	lockdep_assert_held(&scst_mutex);
	list_for_each_entry(dev, &scst_dev_list, list_entry)
		if (strcmp(dev->name, name) == 0)
			return dev;
	return NULL;
}

/**
 * scst_register_target_template() - register a target driver
 * @tgtt: the driver's template; must live until it is unregistered
 *
 * Return: 0, -EINVAL for a template without the mandatory callbacks, or
 * -EEXIST when a driver of that name is registered.
 */
int scst_register_target_template(struct scst_tgt_template *tgtt)
{
	int ret;

	if (!tgtt->name || !tgtt->xmit_response || !tgtt->rdy_to_xfer) {
		pr_err("target driver %s lacks xmit_response or rdy_to_xfer\n",
		       tgtt->name ? tgtt->name : "(unnamed)");
		return -EINVAL;
	}

	INIT_LIST_HEAD(&tgtt->tgt_list);
	mutex_lock(&scst_mutex);
	if (scst_find_template(tgtt->name)) {
		pr_err("target driver %s is already registered\n", tgtt->name);
		ret = -EEXIST;
		goto unlock;
	}
	ret = scst_view->add(SCST_VIEW_TGTT, tgtt);
	if (ret)
		goto unlock;
	list_add_tail(&tgtt->list_entry, &scst_template_list);
	pr_info("target driver %s registered\n", tgtt->name);
unlock:
	mutex_unlock(&scst_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(scst_register_target_template);

/**
 * scst_unregister_target_template() - unregister a target driver
 * @tgtt: the driver's template
 *
 * The driver must have unregistered all its targets.
 */
void scst_unregister_target_template(struct scst_tgt_template *tgtt)
{
	mutex_lock(&scst_mutex);
	WARN_ON(!list_empty(&tgtt->tgt_list));
	list_del(&tgtt->list_entry);
	mutex_unlock(&scst_mutex);
	scst_view->del(SCST_VIEW_TGTT, tgtt);
	pr_info("target driver %s unregistered\n", tgtt->name);
}
EXPORT_SYMBOL_GPL(scst_unregister_target_template);

/**
 * scst_register_dev_driver() - register a device handler
 * @dt: the handler; must live until it is unregistered
 *
 * Return: 0, -EINVAL or -EEXIST.
 */
int scst_register_dev_driver(struct scst_dev_type *dt)
{
	int ret;

	if (!dt->name || !dt->exec) {
		pr_err("device handler %s lacks exec\n",
		       dt->name ? dt->name : "(unnamed)");
		return -EINVAL;
	}

	INIT_LIST_HEAD(&dt->dev_list);
	mutex_lock(&scst_mutex);
	if (scst_find_dev_type(dt->name)) {
		pr_err("device handler %s is already registered\n", dt->name);
		ret = -EEXIST;
		goto unlock;
	}
	ret = scst_view->add(SCST_VIEW_DEVT, dt);
	if (ret)
		goto unlock;
	list_add_tail(&dt->list_entry, &scst_dev_type_list);
	pr_info("device handler %s registered\n", dt->name);
unlock:
	mutex_unlock(&scst_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(scst_register_dev_driver);

/**
 * scst_unregister_dev_driver() - unregister a device handler
 * @dt: the handler
 *
 * The handler must have unregistered all its devices.
 */
void scst_unregister_dev_driver(struct scst_dev_type *dt)
{
	mutex_lock(&scst_mutex);
	WARN_ON(!list_empty(&dt->dev_list));
	list_del(&dt->list_entry);
	mutex_unlock(&scst_mutex);
	scst_view->del(SCST_VIEW_DEVT, dt);
	pr_info("device handler %s unregistered\n", dt->name);
}
EXPORT_SYMBOL_GPL(scst_unregister_dev_driver);

/**
 * scst_register_virtual_device() - register a device of a handler
 * @dt: its handler
 * @name: unique device name
 * @dh_priv: the handler's private data (dev->dh_priv)
 *
 * The handler sets block_size, nblocks and read_only in ->attach() or
 * right after this call, before the device is exported as a LUN.
 *
 * Return: the device, or an ERR_PTR: -EINVAL for a bad name, -EEXIST for
 * a name in use, -EBUSY for the name of a device still being removed,
 * -ENOMEM.
 */
struct scst_device *scst_register_virtual_device(struct scst_dev_type *dt,
						 const char *name,
						 void *dh_priv)
{
	struct scst_device *dev;
	int ret;

	if (!name[0] || strlen(name) >= SCST_MAX_NAME || strchr(name, '/')) {
		pr_err("invalid device name '%s'\n", name);
		return ERR_PTR(-EINVAL);
	}

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return ERR_PTR(-ENOMEM);
	strscpy(dev->name, name, sizeof(dev->name));
	dev->handler = dt;
	dev->dh_priv = dh_priv;
	dev->block_size = 512;
	dev->block_shift = 9;
	dev->threads_num = dt->exec_may_sleep ? max(dt->threads_num, 1) : 0;
	dev->max_transfer_kb = READ_ONCE(scst_max_transfer_kb);
	INIT_LIST_HEAD(&dev->tgt_dev_list);
	INIT_LIST_HEAD(&dev->lun_refs);
	INIT_LIST_HEAD(&dev->blocked_cmds);
	dev->threads_pool_type = SCST_THREADS_POOL_PER_INITIATOR;
	mutex_init(&dev->dev_mutex);
	spin_lock_init(&dev->dev_lock);
	init_completion(&dev->kobj_released);
	/*
	 * The APTPL file is read not under scst_mutex, and only once no
	 * device of that name can still write it; the name is checked again
	 * below, against a concurrent registration.
	 */
	mutex_lock(&scst_mutex);
	ret = scst_dev_name_taken(name);
	mutex_unlock(&scst_mutex);
	if (ret)
		goto free_dev;
	ret = scst_pr_dev_init(dev);
	if (ret)
		goto free_dev;

	mutex_lock(&scst_mutex);
	ret = scst_dev_name_taken(name);
	if (ret)
		goto unlock;
	if (dt->attach) {
		ret = dt->attach(dev);
		if (ret)
			goto unlock;
	}
	ret = scst_dev_start_threads(dev);
	if (ret)
		goto detach;
	ret = scst_view->add(SCST_VIEW_DEV, dev);
	if (ret)
		goto stop_threads;
	list_add_tail(&dev->list_entry, &scst_dev_list);
	list_add_tail(&dev->handler_entry, &dt->dev_list);
	mutex_unlock(&scst_mutex);
	pr_info("device %s of handler %s registered\n", name, dt->name);
	return dev;

stop_threads:
	scst_dev_stop_threads(dev);
detach:
	if (dt->detach)
		dt->detach(dev);
unlock:
	mutex_unlock(&scst_mutex);
	scst_pr_dev_free(dev);
free_dev:
	kfree(dev);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(scst_register_virtual_device);

/**
 * scst_unregister_virtual_device() - unregister a device
 * @dev: the device
 *
 * Removes the device from every LUN it is exported as first (sessions that
 * saw it get REPORTED LUNS DATA HAS CHANGED), waiting for its commands.
 */
void scst_unregister_virtual_device(struct scst_device *dev)
{
	struct scst_dev_type *dt = dev->handler;

	mutex_lock(&scst_mutex);
	scst_dg_dev_removed(dev);
	scst_dev_remove_luns(dev);
	list_move_tail(&dev->list_entry, &scst_dev_dying_list);
	list_del(&dev->handler_entry);
	mutex_unlock(&scst_mutex);
	scst_dev_wait_tgt_devs(dev);	/* not under scst_mutex: may be long */

	scst_dev_stop_threads(dev);
	if (dt->detach)
		dt->detach(dev);
	scst_view->del(SCST_VIEW_DEV, dev);
	mutex_lock(&scst_mutex);
	list_del(&dev->list_entry);	/* the name is free again */
	mutex_unlock(&scst_mutex);
	pr_info("device %s unregistered\n", dev->name);
	scst_pr_dev_free(dev);
	kfree(dev);
}
EXPORT_SYMBOL_GPL(scst_unregister_virtual_device);
